// Package log writes to the app's call log. Lines at level error also become GraphQL errors of the call.
package log

import (
	"fmt"

	"github.com/trellis-dev/trellis/runtime/sdk/go/internal/host"
)

func Debug(message string)   { host.Log("debug", message) }
func Info(message string)    { host.Log("info", message) }
func Warning(message string) { host.Log("warning", message) }
func Error(message string)   { host.Log("error", message) }

func Debugf(format string, args ...any)   { Debug(fmt.Sprintf(format, args...)) }
func Infof(format string, args ...any)    { Info(fmt.Sprintf(format, args...)) }
func Warningf(format string, args ...any) { Warning(fmt.Sprintf(format, args...)) }
func Errorf(format string, args ...any)   { Error(fmt.Sprintf(format, args...)) }
