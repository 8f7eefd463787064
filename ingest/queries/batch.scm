; Batch (cmd.exe). The grammar is flat: a label (`:name`) is a statement like
; any other, so a label's body is not a node of its own. Labels are the
; functions (their line range is the label line only); the `REM`/`::` block
; touching a label is its doc. The REM block at the top is the header
; (`@echo off` is skipped like an attribute).

((program (comment) @header))
(program . (echo_off) @attribute)

; Doc comments: the run of REM/:: comments right above a label.
((comment)+ @doc . (label))

; Labels are the functions (`call :name` invokes them).
(label) @definition.function

; Imports: `call other.bat` / `call "%~dp0lib\other.cmd"` (not `call :label`).
; An unquoted path with `\` or `/` is split by the grammar and not extracted.
((call_stmt (command_name) @import)
  (#match? @import "(?i)\\.(bat|cmd)$"))
((call_stmt (string) @import)
  (#match? @import "(?i)\\.(bat|cmd)\"$"))

; Variables: `set` at the top level before the first label (the main
; section); assignments in labels' bodies are local to the subroutines.
; `set NAME=value` and `set /p NAME=prompt` keep `set`; the quoted form
; `set "NAME=value"` is its name; `set /a EXPR` is one token, kept whole.
; (Predicates apply to a whole pattern, so each form is a pattern of its own.)
(program
  .
  [(echo_off) (comment) (variable_assignment) (if_stmt) (goto_stmt) (call_stmt)
   (exit_stmt) (setlocal_stmt) (endlocal_stmt) (for_stmt) (redirect_stmt)
   (pipe_stmt) (cond_exec) (command_sep) (parenthesized) (macro_invocation) (cmd)
   (ERROR)]*
  .
  (variable_assignment
    . (set_keyword) . (variable_name) @name
    (assignment_value)? @body) @definition.variable
  (#match? @definition.variable "=")
  (#not-match? @definition.variable "^@?[sS][eE][tT]\\s+\\^?\""))
(program
  .
  [(echo_off) (comment) (variable_assignment) (if_stmt) (goto_stmt) (call_stmt)
   (exit_stmt) (setlocal_stmt) (endlocal_stmt) (for_stmt) (redirect_stmt)
   (pipe_stmt) (cond_exec) (command_sep) (parenthesized) (macro_invocation) (cmd)
   (ERROR)]*
  .
  (variable_assignment
    (variable_name) @name @definition.variable) @_quoted
  (#match? @_quoted "^@?[sS][eE][tT]\\s+\\^?\"[^\"=]*="))
(program
  .
  [(echo_off) (comment) (variable_assignment) (if_stmt) (goto_stmt) (call_stmt)
   (exit_stmt) (setlocal_stmt) (endlocal_stmt) (for_stmt) (redirect_stmt)
   (pipe_stmt) (cond_exec) (command_sep) (parenthesized) (macro_invocation) (cmd)
   (ERROR)]*
  .
  (variable_assignment
    (prompt_assignment (variable_name) @name (assignment_value)? @body)) @definition.variable)
(program
  .
  [(echo_off) (comment) (variable_assignment) (if_stmt) (goto_stmt) (call_stmt)
   (exit_stmt) (setlocal_stmt) (endlocal_stmt) (for_stmt) (redirect_stmt)
   (pipe_stmt) (cond_exec) (command_sep) (parenthesized) (macro_invocation) (cmd)
   (ERROR)]*
  .
  (variable_assignment
    (arithmetic_assignment)) @definition.variable)
