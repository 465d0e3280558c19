"""Services: verbs on nouns, keyword-only; they lock rows, load state, call the pure rules and save results.

The modules stand in floors (docs/architecture.md, checked by `make lint`): import the module a name lives in.
"""
