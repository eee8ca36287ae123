"""One entry of the board and two side by side: the entry page, compare, where an entry stands, citations."""
