"""The public board: its rows read once per results version, filters, sort, columns, ranks, the address of a view,
the page and its table, the charts, the CSV and the status line."""
