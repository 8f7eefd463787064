; Bash. The `#` comment block touching a function is its doc; other comments
; are plain. The comment block at the top of the script is the header; the
; shebang (`#!...`) is not a header comment.

((program (comment) @header)
  (#not-match? @header "^#!"))
; The shebang is skipped like an attribute (it must not end a doc walk).
((program . (comment) @attribute)
  (#match? @attribute "^#!"))

; Doc comments: the run of comments right above a function definition.
((comment)+ @doc . (function_definition))

; Imports: the file named by `source FILE` or `. FILE` (anywhere).
(command
  name: (command_name (word) @_cmd)
  .
  argument: (_) @import
  (#any-of? @_cmd "source" "."))

; Functions: `f() { ... }`, `function f { ... }`, `function f() ( ... )`.
(function_definition
  name: (word) @name
  body: (_) @body) @definition.function

; Top-level variables: plain assignments, and `readonly`/`declare`/`typeset`/
; `export` declarations (whose signature keeps the keyword). Further
; assignments in the same declaration (`export A=1 B=2`) are their own elements.
(program
  (variable_assignment
    name: (_) @name
    value: (_)? @body) @definition.variable)
(program
  (declaration_command
    (variable_assignment
      name: (_) @name
      value: (_)? @body)) @definition.variable
  (#not-match? @definition.variable "^local"))
(program
  (declaration_command
    (variable_assignment)
    .
    (variable_assignment
      name: (_) @name
      value: (_)? @body) @definition.variable))
; `declare -A MAP` / `typeset NAME` declare a variable without a value.
(program
  (declaration_command
    (variable_name) @name) @definition.variable
  (#match? @definition.variable "^(declare|typeset)"))
