"""What every public page shares (the header, the document, the words, safe HTML, the views of reports and scores)
and the public routes: the pages, the JSON API, the health route."""
