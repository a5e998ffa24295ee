package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/astroresearch/astroresearch/agent/textcut"
)

// New builds a tool whose argument struct A is the source of truth: its
// Parameters are SchemaOf(A), and Execute validates the raw arguments
// against that schema (every problem reported at once), decodes them
// strictly into A and calls exec. Bad arguments come back as an error
// Result (the model can fix them), never as a Go error; a Go error from
// exec is returned wrapped with the tool name.
//
// The tool implements Interrupter, ConcurrencySafe, SiblingAborter,
// Summarizer, ReadOnlyTool and DeferredTool, answering the R11 defaults
// unless an Option says otherwise; it implements PermissionChecker only
// when WithPermission is given.
//
// New panics when A is not a struct (or pointer to one), when its schema
// cannot be derived, or when a typed Option was built for another type:
// these are programming errors that any test constructing the tool catches.
func New[A any](name, description string, exec func(ctx context.Context, tc *Context, args A) (Result, error), opts ...Option) Tool {
	t, err := newTyped(name, description, exec, opts)
	if err != nil {
		panic(err)
	}
	if t.permission != nil {
		return &permissionTyped[A]{t}
	}
	return t
}

// typed is a tool built by New. It is immutable after construction.
type typed[A any] struct {
	name, description string
	params            json.RawMessage
	schema            *Schema
	exec              func(context.Context, *Context, A) (Result, error)
	settings          toolSettings
	concurrency       func(A) bool
	permission        func(context.Context, *Context, A) PermissionDecision
}

func newTyped[A any](name, description string, exec func(context.Context, *Context, A) (Result, error), opts []Option) (*typed[A], error) {
	at := reflect.TypeFor[A]()
	st := at
	for st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() != reflect.Struct {
		return nil, fmt.Errorf("tools: New %q: arguments type %s must be a struct", name, at)
	}
	params, err := SchemaOf(at)
	if err != nil {
		return nil, fmt.Errorf("tools: New %q: %w", name, err)
	}
	schema, err := CompileSchema(params)
	if err != nil {
		return nil, fmt.Errorf("tools: New %q: %w", name, err)
	}
	t := &typed[A]{name: name, description: description, params: params, schema: schema, exec: exec}
	for _, o := range opts {
		o(&t.settings)
	}
	if c := t.settings.concurrency; c != nil {
		f, ok := c.(func(A) bool)
		if !ok {
			return nil, fmt.Errorf("tools: New %q: WithConcurrencySafe takes func(%s) bool, got %T", name, at, c)
		}
		t.concurrency = f
	}
	if p := t.settings.permission; p != nil {
		f, ok := p.(func(context.Context, *Context, A) PermissionDecision)
		if !ok {
			return nil, fmt.Errorf("tools: New %q: WithPermission takes a func with %s arguments, got %T", name, at, p)
		}
		t.permission = f
	}
	return t, nil
}

// Name implements Tool.
func (t *typed[A]) Name() string { return t.name }

// Description implements Tool.
func (t *typed[A]) Description() string { return t.description }

// Parameters implements Tool. Callers must not modify the returned bytes.
func (t *typed[A]) Parameters() json.RawMessage { return t.params }

func (t *typed[A]) compiledSchema() *Schema { return t.schema }

// Execute implements Tool: validate, decode, run.
func (t *typed[A]) Execute(ctx context.Context, tc *Context, raw json.RawMessage) (Result, error) {
	args, err := t.decode(raw)
	if err != nil {
		return Result{Output: err.Error(), IsError: true}, nil
	}
	res, err := t.exec(ctx, tc, args)
	if err != nil {
		return res, fmt.Errorf("%s: %w", t.name, err)
	}
	return res, nil
}

// decode validates raw against the schema and decodes it strictly into A.
func (t *typed[A]) decode(raw json.RawMessage) (A, error) {
	var args A
	if err := t.schema.Validate(raw); err != nil {
		return args, err
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		trimmed = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&args); err != nil {
		// Reached only for what the schema cannot express, e.g. an integer
		// too large for an int8 field.
		return args, fmt.Errorf("invalid arguments: %w", err)
	}
	return args, nil
}

// InterruptBehavior implements Interrupter.
func (t *typed[A]) InterruptBehavior() InterruptBehavior { return t.settings.interrupt }

// IsConcurrencySafe implements ConcurrencySafe.
func (t *typed[A]) IsConcurrencySafe(raw json.RawMessage) bool {
	if t.settings.alwaysSafe {
		return true
	}
	if t.concurrency == nil {
		return false
	}
	args, err := t.decode(raw)
	return err == nil && t.concurrency(args)
}

// BoundsOwnOutput implements BoundedOutputTool.
func (t *typed[A]) BoundsOwnOutput() bool { return t.settings.boundedOutput }

// IsInteractive implements InteractiveTool.
func (t *typed[A]) IsInteractive() bool { return t.settings.interactive }

// CausesSiblingAbort implements SiblingAborter.
func (t *typed[A]) CausesSiblingAbort() bool { return t.settings.siblingAbort }

// ClassifierSummary implements Summarizer.
func (t *typed[A]) ClassifierSummary() string {
	if t.settings.summary != "" {
		return textcut.Ellipsize(t.settings.summary, MaxSummaryRunes)
	}
	return DefaultSummary(t.description)
}

// IsReadOnly implements ReadOnlyTool.
func (t *typed[A]) IsReadOnly() bool { return t.settings.readOnly }

// DeferLoading implements DeferredTool.
func (t *typed[A]) DeferLoading() bool { return t.settings.deferred }

// permissionTyped is a typed tool with its own permission rule.
type permissionTyped[A any] struct{ *typed[A] }

// CheckPermission implements PermissionChecker with the decoded arguments.
func (t *permissionTyped[A]) CheckPermission(ctx context.Context, tc *Context, raw json.RawMessage) PermissionDecision {
	args, err := t.decode(raw)
	if err != nil {
		return DecisionNone
	}
	return t.permission(ctx, tc, args)
}
