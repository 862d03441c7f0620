//! How the server refuses a request: a mistake in it (400, with the message the CLI gives for the same
//! mistake), or another status, sent as `{"error": message}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A request the server refuses, with the message the page shows (the CLI's message for the same
/// mistake).
#[derive(Debug)]
pub struct BadRequest(pub String);

/// Any refusal: its HTTP status and message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    /// The request is fine but must wait: a search is running for the game, or every core is busy.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::CONFLICT, message: message.into() }
    }
}

impl From<BadRequest> for ApiError {
    fn from(bad: BadRequest) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: bad.0 }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}
