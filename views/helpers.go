package views

import (
	"fmt"
	"net/http"
	"time"
)

func statusTitle(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "Error"
}

// formatTime renders a timestamp in UTC, the astronomer's default.
func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

func formatOptTime(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return formatTime(*t)
}

// formatBytes renders a byte count with a binary unit.
func formatBytes[T int64 | uint64](n T) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := int64(n) / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

func formatDuration(d time.Duration) string { return d.Round(time.Second).String() }

func itoa[T int | int64 | uint64](n T) string { return fmt.Sprint(n) }

func fmtDeg(v float64) string { return fmt.Sprintf("%.6f", v) }

func fmtFloat(v float64) string { return fmt.Sprintf("%g", v) }
