"""What the signed-in Gradio pages share: handlers bound for Gradio, errors as messages, whose visits are whose, the
look, keyboard and screen-reader help, and the one module for Gradio's internals."""
