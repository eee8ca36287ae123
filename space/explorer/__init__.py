"""The Explorer: a validation sample or a row of one's own submission, drawn and explained."""
