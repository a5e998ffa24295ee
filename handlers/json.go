package handlers

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"
)

// decodeJSON reads one JSON object from the request body into v. Malformed
// JSON, a wrong type, or trailing data is a 400 with a plain message; the
// body size is already bounded by the BodyLimit middleware.
func decodeJSON(c echo.Context, v any) error {
	dec := json.NewDecoder(c.Request().Body)
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return apiError(http.StatusRequestEntityTooLarge, "too_large", "The request body is too large.")
		case errors.Is(err, io.EOF):
			return apiError(http.StatusBadRequest, "invalid_json", "The request body is empty; send a JSON object.")
		default:
			return apiError(http.StatusBadRequest, "invalid_json", "The request body is not valid JSON for this endpoint.")
		}
	}
	if dec.More() {
		return apiError(http.StatusBadRequest, "invalid_json", "The request body has data after the JSON object.")
	}
	return nil
}
