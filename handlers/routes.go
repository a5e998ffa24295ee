package handlers

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/astroresearch/astroresearch/store"
)

// pageDeadline bounds ordinary pages and API calls. Long-lived streams get
// their own limits where they are registered.
const pageDeadline = 30 * time.Second

// routes registers every route in one place. All paths live under
// BASE_PATH. It returns an error when a middleware layer cannot be built
// (the cross-origin protection rejects the configured origins).
func (s *Server) routes() error {
	e := s.e
	csrf, err := s.csrf()
	if err != nil {
		return fmt.Errorf("handlers: cross-origin protection: %w", err)
	}
	e.Pre(
		s.requestID,
		s.accessLog,
		s.compress,
		middleware.Recover(),
		s.securityHeaders,
		middleware.BodyLimit("1M"),
		s.readyGate,
		s.cors,
		csrf,
	)
	root := e.Group(s.cfg.BasePath)

	// Probes and assets: no session, no authentication. The probes also
	// answer at the server root so container health checks need not know
	// BASE_PATH.
	root.GET("/healthz", s.healthz)
	root.GET("/readyz", s.readyz)
	if s.cfg.BasePath != "" {
		e.GET("/healthz", s.healthz)
		e.GET("/readyz", s.readyz)
	}
	root.GET("/static/*", s.serveStatic)
	root.HEAD("/static/*", s.serveStatic)

	// (b) Bookmarklet import: any origin, API token only (S4b, L3).
	s.bookmarklet = root.Group("/api/bookmarklet", s.tokenOnly, deadline(pageDeadline))
	s.bookmarklet.POST("/import", s.apiBookmarkletImport)

	// MCP for other assistants (O6): token only, stateless, under
	// CORS layer (c).
	if s.mcp != nil {
		root.Match([]string{http.MethodGet, http.MethodPost, http.MethodDelete}, "/mcp", s.mcpEndpoint, s.mcpAuth, deadline(s.mcpDeadline()))
	}
	// The triage's Atom feed: the personal token in the URL is the only
	// credential (feed readers carry no cookie).
	root.GET("/triage/feed/:token", s.triageFeed, deadline(pageDeadline))

	// (a) Sign-in API.
	authAPI := root.Group("/api/auth", s.loadSession, s.authenticate, deadline(pageDeadline))
	authAPI.POST("/login", s.apiLogin)
	authAPI.POST("/logout", s.apiLogout)
	authAPI.GET("/verify", s.apiVerify)

	// (c) Pages.
	pages := root.Group("", s.loadSession, s.authenticate, deadline(pageDeadline))
	pages.GET("/setup", s.setupPage)
	pages.POST("/setup", s.setupSubmit)
	pages.GET("/login", s.loginPage)
	pages.POST("/login", s.loginSubmit)
	pages.POST("/logout", s.logoutSubmit)
	pages.GET("/import", s.importPage) // bookmarklet landing: handles signed-out visitors itself

	signedIn := pages.Group("", s.requireUser)
	signedIn.GET("/", s.homePage)
	signedIn.POST("/import", s.importSubmit)
	signedIn.GET("/targets", s.targetsPage)
	signedIn.GET("/objects/:name", s.objectPage)
	signedIn.GET("/measurements", s.measurementsPage)
	signedIn.GET("/measurements/export.csv", s.measurementsCSV)
	signedIn.GET("/measurements/export.tex", s.measurementsTeX)
	signedIn.GET("/research", s.researchList)
	signedIn.POST("/research", s.researchCreate)
	signedIn.GET("/research/:id", s.researchSession)
	signedIn.POST("/research/:id/turns", s.researchAsk)
	signedIn.POST("/research/:id/cancel", s.researchCancel)
	signedIn.POST("/research/:id/answers", s.researchAnswer)
	signedIn.POST("/research/:id/permissions", s.researchPermission)
	signedIn.POST("/research/:id/rename", s.researchRename)
	signedIn.GET("/research/:id/delete", s.researchDeleteConfirm)
	signedIn.POST("/research/:id/delete", s.researchDelete)
	signedIn.GET("/research/:id/record", s.researchRecord)
	signedIn.GET("/research/:id/record/new", s.researchRecordNew)
	signedIn.POST("/research/:id/record/add", s.researchRecordAdd)
	signedIn.GET("/library", s.libraryList)
	signedIn.POST("/library/import", s.libraryImport)
	signedIn.POST("/library/ask", s.libraryAsk)
	signedIn.GET("/library/search", s.paperSearchPage)
	signedIn.GET("/library/bibtex", s.libraryBibTeX)
	signedIn.GET("/library/:id", s.libraryPaper)
	signedIn.GET("/library/:id/status", s.libraryStatus)
	signedIn.POST("/library/:id/download", s.libraryDownload)
	signedIn.GET("/library/:id/pdf", s.libraryPDF)
	signedIn.GET("/library/notes", s.notesPage)
	signedIn.POST("/library/:id/parse", s.libraryParse)
	signedIn.GET("/library/:id/parse-status", s.libraryParseStatus)
	signedIn.GET("/library/:id/read", s.libraryRead)
	signedIn.POST("/library/:id/ask", s.libraryPaperAsk)
	signedIn.POST("/library/:id/notes", s.libraryAddNote)
	signedIn.POST("/library/:id/notes/:note/delete", s.libraryDeleteNote)
	signedIn.GET("/library/:id/links", s.libraryLinks)
	signedIn.POST("/library/:id/links", s.libraryLinks)
	signedIn.POST("/library/:id/tags", s.libraryAddTags)
	signedIn.POST("/library/:id/tags/remove", s.libraryRemoveTag)
	signedIn.GET("/jobs", s.jobsPage)
	signedIn.POST("/jobs/:id/cancel", s.cancelJob)
	signedIn.GET("/search", s.searchPage)
	signedIn.GET("/search/results", s.searchFragment)
	signedIn.GET("/audit", s.auditPage)
	signedIn.GET("/settings", s.settingsPage)
	signedIn.POST("/settings/password", s.changePassword)
	signedIn.POST("/settings/tokens", s.createToken)
	signedIn.POST("/settings/tokens/:id/revoke", s.revokeToken)
	signedIn.POST("/settings/permissions", s.addPermissionRule)
	signedIn.POST("/settings/permissions/:id/delete", s.deletePermissionRule)
	signedIn.GET("/settings/memories", s.memoriesPage)
	signedIn.POST("/settings/memories", s.addMemory)
	signedIn.POST("/settings/memories/:id", s.updateMemory)
	signedIn.POST("/settings/memories/:id/delete", s.deleteMemory)
	signedIn.GET("/triage", s.triagePage)
	signedIn.POST("/triage/settings", s.triageSettingsSubmit)
	signedIn.POST("/triage/refresh", s.triageRefreshSubmit)
	signedIn.POST("/triage/feed", s.triageFeedSubmit)
	signedIn.POST("/triage/papers/:arxiv/hide", s.triageHideSubmit)
	signedIn.POST("/triage/papers/:arxiv/add", s.triageAddSubmit)

	admin := signedIn.Group("/admin", s.requireAdmin)
	admin.GET("", s.adminPage)
	admin.POST("/users", s.adminCreateUser)
	admin.POST("/users/:id/disabled", s.adminSetDisabled)
	admin.POST("/users/:id/password", s.adminResetPassword)
	admin.POST("/backup", s.adminBackup)
	admin.POST("/model", s.adminSetModel)

	// (c) JSON API for the signed-in caller (cookie or Bearer token).
	s.api = root.Group("/api", s.loadSession, s.authenticate, s.requireUser, deadline(pageDeadline))
	s.api.POST("/sessions", s.apiCreateSession)
	s.api.GET("/sessions", s.apiListSessions)
	s.api.GET("/sessions/:id/messages", s.apiMessages)
	s.api.POST("/sessions/:id/turns", s.apiStartTurn)
	s.api.POST("/sessions/:id/cancel", s.apiCancel)
	s.api.POST("/sessions/:id/answers", s.apiAnswer)
	s.api.POST("/sessions/:id/permissions", s.apiPermission)
	s.api.GET("/sessions/:id/record", s.apiSessionRecord)
	s.api.GET("/sessions/:id/new", s.apiSessionNew)
	s.api.GET("/search/history", s.apiSearchHistory)
	s.api.GET("/targets/:name", s.apiTarget)
	s.api.GET("/measurements", s.apiMeasurements)
	s.api.GET("/objects/:name", s.apiObject)
	s.api.GET("/papers", s.apiPapers)
	s.api.POST("/papers/import", s.apiImportPaper)
	s.api.POST("/library/ask", s.apiLibraryAsk)
	s.api.GET("/papers/bibtex", s.apiPapersBibTeX)
	s.api.GET("/papers/:id", s.apiPaper)
	s.api.GET("/papers/:id/bibtex", s.apiPaperBibTeX)
	s.api.GET("/papers/:id/content", s.apiPaperContent)
	s.api.GET("/papers/:id/notes", s.apiNotes)
	s.api.POST("/papers/:id/notes", s.apiAddNote)
	s.api.GET("/notes", s.apiSearchNotes)
	s.api.PUT("/papers/:id/tags", s.apiSetTags)
	s.api.GET("/papers/:id/citations", s.apiPaperLinks(store.LinkCitation))
	s.api.GET("/papers/:id/references", s.apiPaperLinks(store.LinkReference))
	s.api.GET("/triage", s.apiTriage)
	s.api.GET("/triage/settings", s.apiTriageSettings)
	s.api.PUT("/triage/settings", s.apiPutTriageSettings)
	s.api.POST("/triage/refresh", s.apiTriageRefresh)
	s.api.POST("/triage/papers/:arxiv/hide", s.apiTriageHide)
	s.api.POST("/triage/papers/:arxiv/add", s.apiTriageAdd)

	// Event streams live as long as the client: no route deadline.
	streams := root.Group("/api", s.loadSession, s.authenticate, s.requireUser)
	streams.GET("/sessions/:id/events", s.apiEvents)
	pageStreams := root.Group("/research", s.loadSession, s.authenticate, s.requireUser)
	pageStreams.GET("/:id/stream", s.researchStream)
	return nil
}

// BookmarkletGroup returns the route group of CORS layer (b), for features
// that register import endpoints there (and for tests).
func (s *Server) BookmarkletGroup() *echo.Group { return s.bookmarklet }
