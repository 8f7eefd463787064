; Markdown inline grammar: links inside paragraphs, lists and headings.

; `[text](url)`.
(inline_link
  (link_text) @link.text
  (link_destination) @link.url)

; `<https://...>`.
(uri_autolink) @link.autolink

; Reference links: `[text][label]`, and `[label][]` / `[label]` whose text is
; the label. The extractor resolves the label through the document's
; definitions; an undefined label is plain text, not a link.
(full_reference_link
  (link_text) @link.text
  (link_label) @link.label)
(collapsed_reference_link
  (link_text) @link.text @link.label)
(shortcut_link
  (link_text) @link.text @link.label)
