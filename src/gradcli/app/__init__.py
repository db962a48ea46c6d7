"""Services and renderers behind the ``gradcli`` command line.

Services (:mod:`.run`, :mod:`.ops`, :mod:`.graph`) return plain data and
never import rich; renderers (:mod:`.render`) turn that data into rich
renderables, JSON, DOT or Mermaid.  Nothing is imported here, so importing
the CLI stays cheap.
"""
