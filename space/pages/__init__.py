"""Page logic without gradio: what each tab shows, as HTML, tables and figures built from the service."""
