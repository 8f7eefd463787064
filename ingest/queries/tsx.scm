; TSX (TypeScript with JSX): exactly the TypeScript query, which the TSX
; grammar accepts as it is (JSX values are plain values to it).
; inherits: typescript

; JSX components are calls (`<Button>`, `<ui.Card>`), not the lower-case
; intrinsic elements (`<div>`).
((jsx_opening_element name: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.call
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.call
  (#match? @name "^[A-Z]"))
