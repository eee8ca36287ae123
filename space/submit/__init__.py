"""Submitting and following one's submissions: the Submit tab, its declarations and messages, the uploads it holds,
and My submissions."""
