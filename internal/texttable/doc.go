// Package texttable writes tables as GitHub-flavoured Markdown and as LaTeX (booktabs).
//
// A Table is data: column headings with their alignment, optional groups of columns
// under a common heading, rows of cells (or section headings spanning the table), and
// notes. A cell may carry a note: the distinct notes of a table are numbered in order of
// appearance, referenced from their cells ("[1]" in Markdown, a superscript in LaTeX)
// and printed under the table. WriteMarkdown and WriteLaTeX render the same table to an
// io.Writer; neither reorders, rounds or drops anything the caller put in a cell.
//
// Text is escaped for each format: Markdown's table markup, LaTeX's special characters,
// and the non-ASCII symbols the harness prints (λ, ρ, ±, −, …) as LaTeX math.
package texttable
