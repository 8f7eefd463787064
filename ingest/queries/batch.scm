; Batch (cmd.exe). The grammar is flat: a label (`:name`) is a statement like
; any other, so a label's body is not a node of its own. Labels are the
; functions (their line range is the label line only); the `REM`/`::` block
; touching a label or a `set` is its doc. The REM block at the top is the
; header (`@echo off` is skipped like an attribute).
;
; Variables are environment variables, global to the script (a subroutine's
; `setlocal` is dynamic, not a scope the grammar sees): every `set NAME=...`
; is one, wherever it is (main section, subroutines, `if`/`for` bodies,
; parenthesized blocks).

; Header: the comments that open the script, before or after `@echo off`.
(program . (comment)+ @header)
(program . (echo_off) . (comment)+ @header)
(program . (echo_off) @attribute)

; Doc comments: any REM/:: comment; the engine keeps the run touching an
; element (no blank line between).
(comment) @doc

; Labels are the functions (`call :name` invokes them). The label is one
; token, so its name keeps the leading `:`.
(label) @name @definition.function

; Imports: `call other.bat` / `call "%~dp0lib\other.cmd"` (not `call :label`).
; An unquoted path with `\` or `/` is split by the grammar and not extracted.
((call_stmt (command_name) @import)
  (#match? @import "(?i)\\.(bat|cmd)$"))
((call_stmt (string) @import)
  (#match? @import "(?i)\\.(bat|cmd)\"$"))

; Variables. `set NAME=value` and `set /p NAME=prompt` keep `set` in the
; signature, cut before the value; the quoted form `set "NAME=value"` is its
; name (the value sits inside the quotes). `set NAME` alone prints variables
; and `set /a EXPR` is arithmetic on one token with no name: neither is a
; definition. (Predicates apply to a whole pattern, so each form is a pattern
; of its own.)
((variable_assignment
   . (set_keyword) . (variable_name) @name
   (assignment_value)? @body) @definition.variable
  (#match? @definition.variable "=")
  (#not-match? @definition.variable "^@?[sS][eE][tT]\\s+\\^?\""))
((variable_assignment
   (variable_name) @name @definition.variable) @_quoted
  (#match? @_quoted "^@?[sS][eE][tT]\\s+\\^?\"[^\"=]*="))
(variable_assignment
  (prompt_assignment (variable_name) @name (assignment_value)? @body)) @definition.variable

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line; no `in`: a label spans its own line only):
; - calls: `call :label` and `goto :label` / `goto label` (not `goto :eof`);
;   the grammar keeps the label in the statement's own token, so the name is
;   the statement's second word;
; - imports: the scripts called (`call other.bat`, `call "lib\x.cmd"`).
((call_stmt) @name @reference.call
  (#match? @name "(?i)^@?call\\s+:[A-Za-z_$]")
  (#set! name.word "2"))
((goto_stmt) @name @reference.call
  (#not-match? @name "(?i)^@?goto\\s+:?eof\\b")
  (#set! name.word "2"))
((call_stmt (command_name) @name) @reference.import
  (#match? @name "(?i)\\.(bat|cmd)$"))
((call_stmt (string) @name) @reference.import
  (#match? @name "(?i)\\.(bat|cmd)\"$"))
