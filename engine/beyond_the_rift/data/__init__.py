"""The content pack as JSON data (a package so that setuptools ships the *.json files)."""
