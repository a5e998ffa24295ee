package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/astroresearch/astroresearch/mcpserver"
)

// defaultServerURL is where `astroresearch mcp` looks for the server when
// neither --url nor ASTRO_URL says.
const defaultServerURL = "http://localhost:8080"

// mcpBridge is `astroresearch mcp [--url URL] [--token-file FILE]`: an MCP
// server on stdin/stdout for clients that only launch local commands,
// relaying to a running AstroResearch's /mcp with the user's API token
// (from the file, else ASTRO_TOKEN). URL is the server as users open it,
// BASE_PATH included (else ASTRO_URL, else http://localhost:8080).
// Diagnostics go to errOut; out carries only the protocol.
func mcpBridge(ctx context.Context, args []string, getenv func(string) string, in io.Reader, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(errOut)
	server := fs.String("url", "", "the AstroResearch server as you open it, BASE_PATH included (default $ASTRO_URL, else "+defaultServerURL+")")
	tokenFile := fs.String("token-file", "", "a file holding your personal API token (default: $ASTRO_TOKEN)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("mcp: unexpected argument %q (usage: astroresearch mcp [--url URL] [--token-file FILE])", fs.Arg(0))
	}
	token, err := bridgeToken(*tokenFile, getenv)
	if err != nil {
		return err
	}
	endpoint, err := mcpEndpoint(firstNonEmpty(*server, getenv("ASTRO_URL"), defaultServerURL))
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(errOut, nil)).With("cmd", "mcp")
	if plainRemote(endpoint) {
		log.Warn("the API token goes to this server unencrypted (http to another machine); use https", "url", endpoint)
	}
	return mcpserver.Bridge(ctx, in, out, mcpserver.BridgeOptions{Endpoint: endpoint, Token: token, Log: log})
}

// bridgeToken reads the token from file, else ASTRO_TOKEN.
func bridgeToken(file string, getenv func(string) string) (string, error) {
	if file != "" {
		raw, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("mcp: read the token file: %w", err)
		}
		if t := strings.TrimSpace(string(raw)); t != "" {
			return t, nil
		}
		return "", fmt.Errorf("mcp: the token file %s is empty", file)
	}
	if t := strings.TrimSpace(getenv("ASTRO_TOKEN")); t != "" {
		return t, nil
	}
	return "", errors.New("mcp: no API token: pass --token-file FILE or set ASTRO_TOKEN (create one under Settings → Personal API tokens)")
}

// mcpEndpoint turns the server's URL into its /mcp endpoint.
func mcpEndpoint(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("mcp: %q is not an http(s) server URL such as %s (ASTRO_URL or --url)", raw, defaultServerURL)
	}
	p := strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(p, "/mcp") {
		p += "/mcp"
	}
	u.Path = p
	return u.String(), nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// plainRemote reports whether endpoint is plain http to a host other than
// this machine, where the token could be read on the way.
func plainRemote(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "http" {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return false
	}
	ip := net.ParseIP(h)
	return ip == nil || !ip.IsLoopback()
}
