"""What the pages share: helpers for views that more than one page package uses (the console, the public and private
pages, the home page, the table trackers). A page package imports these, never another page package's modules."""
