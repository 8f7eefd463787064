; Python. Docstrings are the first string statement inside a body.
; Decorators belong to decorated_definition, so the definition itself is
; captured and its signature starts at `def`/`class`.

; Module docstring and leading comments are header comments.
(module . (expression_statement (string) @header))

(decorator) @attribute
((comment) @doc (#match? @doc "^#:"))

; Imports: `import a.b` and `from a.b import c` both name the module.
(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement module_name: (dotted_name) @import)
(import_from_statement module_name: (relative_import) @import)

; Top-level functions (also when decorated).
(module
  (function_definition
    name: (identifier) @name
    body: (block . (expression_statement (string) @doc)?) @body) @definition.function)
(module
  (decorated_definition
    definition: (function_definition
      name: (identifier) @name
      body: (block . (expression_statement (string) @doc)?) @body) @definition.function))

; Classes (also when decorated).
(module
  (class_definition
    name: (identifier) @name
    body: (block . (expression_statement (string) @doc)?) @body) @definition.class)
(module
  (decorated_definition
    definition: (class_definition
      name: (identifier) @name
      body: (block . (expression_statement (string) @doc)?) @body) @definition.class))

; Methods: functions directly in a class body (also when decorated).
(class_definition
  body: (block
    (function_definition
      name: (identifier) @name
      body: (block . (expression_statement (string) @doc)?) @body) @definition.method))
(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition
        name: (identifier) @name
        body: (block . (expression_statement (string) @doc)?) @body) @definition.method)))

; Module-level variables: annotated (`X: int = 1`) or UPPER_CASE constants.
(module
  (expression_statement
    (assignment
      left: (identifier) @name
      type: (_)
      right: (_) @body) @definition.variable))
(module
  (expression_statement
    (assignment
      left: (identifier) @name
      type: (_)) @definition.variable))
(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (_) @body) @definition.variable)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
