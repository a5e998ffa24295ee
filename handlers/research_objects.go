package handlers

import (
	"github.com/astroresearch/astroresearch/agent"
	"github.com/astroresearch/astroresearch/views"
)

// objectLink links a query_target or object_literature card to the object
// page of the object it resolved (the tools put it in their metadata).
func (t *timeline) objectLink(d agent.ToolResultData) views.Link {
	if (d.Name != "query_target" && d.Name != "object_literature") || d.IsError {
		return views.Link{}
	}
	obj, _ := d.Metadata["object"].(map[string]any)
	name, _ := obj["name"].(string)
	if name == "" || len(name) > 200 {
		return views.Link{}
	}
	return views.Link{Href: t.basePath + views.ObjectPath(name), Text: "What is known about " + name}
}
