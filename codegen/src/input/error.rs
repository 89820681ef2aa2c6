//! [`InputError`]: a problem in the input text, with its line and column.

use thiserror::Error;

/// An error at a position of the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {message}")]
pub struct InputError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Byte offset into the input.
    pub offset: usize,
    /// What is wrong, without the position.
    pub message: String,
    /// The text of the offending line, for a caret display.
    pub source_line: String,
}

impl InputError {
    /// An error at byte `offset` of `src`.
    pub fn at(src: &str, offset: usize, message: impl Into<String>) -> InputError {
        let offset = offset.min(src.len());
        let line_start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line_end = src[offset..].find('\n').map_or(src.len(), |i| offset + i);
        InputError {
            line: src[..offset].matches('\n').count() + 1,
            column: src[line_start..offset].chars().count() + 1,
            offset,
            message: message.into(),
            source_line: src[line_start..line_end].to_string(),
        }
    }
}
