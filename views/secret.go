package views

// tokenSecret is the one-time block of a token just created; nil when
// none was.
func tokenSecret(p SettingsPage) *OneTimeSecret {
	if p.NewToken == "" {
		return nil
	}
	return &OneTimeSecret{Heading: "New API token “" + p.NewTokenName + "”",
		Note:  "Copy it now and keep it somewhere safe: it will not be shown again. Revoke it below when you no longer need it.",
		Label: "Token", Value: p.NewToken, TestID: "new-token", Script: p.Static("js/copy.js")}
}

// backupSecret is the confirmation of a backup just written, with its
// path ready to copy; nil when none was.
func backupSecret(p AdminPage) *OneTimeSecret {
	if p.BackupPath == "" {
		return nil
	}
	return &OneTimeSecret{Heading: "Backup written",
		Note:  "A consistent copy of the database is in this file on the server. Copy the path to move the file somewhere safe.",
		Label: "Backup file", Value: p.BackupPath, TestID: "backup-done", Script: p.Static("js/copy.js")}
}
