; Bash (also sh, zsh and ksh scripts the grammar can read).
;
; Conventions: functions (`f() { ... }`, `function f { ... }`, `f() ( ... )`)
; at any depth; a function defined inside another is owned by it (the engine
; builds the chain). Global variables are the assignments and declarations
; (`export`, `readonly`, `declare`, `typeset`) that run in the script's own
; shell: at the top level and inside top-level `if`/`case`/`for`/`while`
; blocks, `{ ... }` groups and `&&`/`||` lists. Assignments inside a function
; are locals (the engine drops values inside a function), as are those in a
; subshell `( ... )`, a `$( ... )` or a `<( ... )`, which never reach the
; script's shell; `X=1 cmd` only sets X for `cmd` and is not captured.
; The `#` comment block touching an element is its doc; the comment block at
; the top of the script is the header (the shebang `#!...` is not).

; Header: the comments that open the script, after the shebang if any (a
; block that documents the first element is its doc, not the header). Only
; the leading run is captured: the engine walks back from every candidate.
((program . (comment)+ @header)
  (#not-match? @header "^#!"))
((program . (comment) @_shebang . (comment)+ @header)
  (#match? @_shebang "^#!"))
; The shebang is skipped like an attribute (it must not end a doc walk).
((program . (comment) @attribute)
  (#match? @attribute "^#!"))

; Doc comments: any comment but the shebang; the engine keeps the run of
; comments touching an element (no blank line, not trailing other code).
((comment) @doc
  (#not-match? @doc "^#!"))

; Imports: the file named by `source FILE` or `. FILE` (anywhere).
(command
  name: (command_name (word) @_cmd)
  .
  argument: (_) @import
  (#any-of? @_cmd "source" "."))

; Functions, at any depth.
(function_definition
  name: (word) @name
  body: (_) @body) @definition.function

; Functions the grammar cannot read: after a parse error (`[ "$a" "$b" ]`
; is one), `name() {` becomes a word followed by an ERROR that starts with
; `(`, an argument of the command before it or a command of its own. The name
; alone is the element, one line long. (The shape where the word is itself
; inside the ERROR cannot be matched: the engine runs no pattern rooted at
; ERROR.)
((command
   argument: (word) @name @definition.function
   .
   (ERROR . "("))
  (#match? @name "^[A-Za-z_][A-Za-z0-9_.:-]*$"))
((concatenation
   (word) @name @definition.function
   .
   (ERROR . "("))
  (#match? @name "^[A-Za-z_][A-Za-z0-9_.:-]*$"))
(program
  (command . name: (command_name (word) @name @definition.function) .)
  .
  (ERROR . "(" . ")"))

; Global variables: `NAME=value` as a statement of its own, in every block
; that runs in the script's shell (the engine drops those inside functions).
; Each container is listed because a `variable_assignment` is also the
; `X=1` of `X=1 cmd`, which is no definition. Subscripts (`A[k]=v`) and
; appends (`X+=v`) are no definitions either.
([(program
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (compound_statement
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (if_statement
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (elif_clause
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (else_clause
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (case_item
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (do_group
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (list
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (redirected_statement
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)
  (variable_assignments
   (variable_assignment name: (variable_name) @name value: (_)? @body) @definition.variable)]
  (#not-match? @definition.variable "^[A-Za-z_][A-Za-z0-9_]*\\+="))

; Declarations: `readonly`/`declare`/`typeset`/`export` with an assignment
; (the signature keeps the keyword and flags). Further assignments in the
; same declaration (`export A=1 B=2`) are their own elements. `local` is
; only valid inside functions.
((declaration_command
   (variable_assignment
     name: (variable_name) @name
     value: (_)? @body)) @definition.variable
  (#not-match? @definition.variable "^local"))
(declaration_command
  (variable_assignment)
  .
  (variable_assignment
    name: (variable_name) @name
    value: (_)? @body) @definition.variable)
; `declare -A MAP` / `typeset NAME` declare a variable without a value
; (`export NAME` / `readonly NAME` only mark an existing one).
((declaration_command
   (variable_name) @name) @definition.variable
  (#match? @definition.variable "^(declare|typeset)"))

; Assignments in these run in a child shell: they are locals.
(subshell) @local.scope
(command_substitution) @local.scope
(process_substitution) @local.scope

; A function definition the grammar could not finish (the file has a parse
; error before it) is still found by its shape `name() {`.
(ERROR (word) @name @definition.function . "(" . ")" . ["{" (compound_statement)])

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the function around it as `in`):
; - calls: every command run by name (a function or a program: `build
;   "$dir"`, `make`), but the shell's own builtins, which are not worth an
;   entry each (`echo`, `printf`, `cd`, `[`, …);
; - imports: the file of `source FILE` / `. FILE`.
((command name: (command_name (word) @name)) @reference.call
  (#not-any-of? @name
    "echo" "printf" "cd" "exit" "return" "shift" "read" "set" "unset" "test" "[" "[["
    "true" "false" ":" "eval" "exec" "trap" "wait" "break" "continue" "source" "."
    "local" "let" "pushd" "popd" "getopts" "type" "command" "builtin" "hash"))
((command
   name: (command_name (word) @_cmd)
   .
   argument: (_) @name) @reference.import
  (#any-of? @_cmd "source" "."))

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(simple_expansion (variable_name) @name) @reference.read
(expansion (variable_name) @name) @reference.read
