package symbols

import (
	"fmt"
	"strings"
	"testing"
)

// render lists symbols as "line:kind:name" for compact comparison.
func render(syms []Symbol) string {
	var parts []string
	for _, s := range syms {
		p := fmt.Sprintf("%d:%s:%s", s.Line, s.Kind, s.Name)
		if s.Container != "" {
			p += "@" + s.Container
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

func check(t *testing.T, name, src, want string) {
	t.Helper()
	if got := render(Extract(name, []byte(src))); got != want {
		t.Errorf("%s:\n got  %s\n want %s", name, got, want)
	}
}

// From spf13/cobra command.go (abridged).
const goSrc = "package cobra\n" +
	"\n" +
	"import (\n" +
	"\t\"fmt\"\n" +
	")\n" +
	"\n" +
	"const (\n" +
	"\tFlagSetByCobraAnnotation     = \"cobra_annotation_flag_set_by_cobra\"\n" +
	"\tCommandDisplayNameAnnotation = \"cobra_annotation_command_display_name\"\n" +
	")\n" +
	"\n" +
	"// FParseErrWhitelist configures Flag parse errors to be ignored\n" +
	"type FParseErrWhitelist flag.ParseErrorsWhitelist\n" +
	"\n" +
	"type Group struct {\n" +
	"\tID    string\n" +
	"\tTitle string\n" +
	"}\n" +
	"\n" +
	"var usage = `\n" +
	"func notAFunction() {}\n" +
	"`\n" +
	"\n" +
	"func (c *Command) Runnable() bool {\n" +
	"\treturn c.Run != nil || c.RunE != nil\n" +
	"}\n" +
	"\n" +
	"func hasNoOptDefVal(name string, fs *flag.FlagSet) bool {\n" +
	"\tflag := fs.Lookup(name)\n" +
	"\treturn flag != nil\n" +
	"}\n" +
	"\n" +
	"func (s *Set[K, V]) Add(k K) {}\n" +
	"var _, errFoo, errBar = 1, 2, 3\n" +
	"type (\n" +
	"\tA = B\n" +
	"\tPair[K comparable] struct{ k K }\n" +
	")\n"

func TestGo(t *testing.T) {
	check(t, "command.go", goSrc, "8:const:FlagSetByCobraAnnotation 9:const:CommandDisplayNameAnnotation "+
		"13:type:FParseErrWhitelist 15:type:Group 20:var:usage 24:method:Runnable@Command "+
		"28:func:hasNoOptDefVal 33:method:Add@Set 34:var:errFoo 34:var:errBar 36:type:A 37:type:Pair")
}

// From psf/requests models.py (abridged).
const pySrc = `"""
requests.models
def not_a_function():
"""
REDIRECT_STATI = (
    codes.moved,
)
DEFAULT_REDIRECT_LIMIT = 30


class RequestEncodingMixin(object):
    @property
    def path_url(self):
        url = []
        return ''.join(url)

    @staticmethod
    async def _encode_params(data):
        if isinstance(data, (str, bytes)):
            return data


def get_auth_from_url(url):
    parsed = urlparse(url)
    if parsed:
        pass
`

func TestPython(t *testing.T) {
	check(t, "models.py", pySrc, "5:var:REDIRECT_STATI 8:var:DEFAULT_REDIRECT_LIMIT 11:class:RequestEncodingMixin "+
		"13:method:path_url@RequestEncodingMixin 18:method:_encode_params@RequestEncodingMixin 23:func:get_auth_from_url")
}

// From a TypeScript code base (VS Code style) and plain JavaScript.
const tsSrc = `import { Emitter } from './event';

export interface IDisposable {
	dispose(): void;
}

export type Listener<T> = (e: T) => void;

export const enum State { Idle, Busy }

export abstract class Disposable implements IDisposable {
	private readonly _store = new DisposableStore();

	constructor(private readonly name: string) {
	}

	public dispose(): void {
		if (this._isDisposed) {
			return;
		}
	}

	async *entries(): AsyncIterable<string> {
	}
}

export function toDisposable(fn: () => void): IDisposable {
	return { dispose: fn };
}

export const debounce = (fn, ms = 10) => {
};
const handler = async function () {};
let counter = 0;
module.exports = { parse: function (s) { return s; } };
`

func TestTypeScript(t *testing.T) {
	check(t, "lifecycle.ts", tsSrc, "3:interface:IDisposable 7:type:Listener 9:enum:State 11:class:Disposable "+
		"14:method:constructor 17:method:dispose 23:method:entries 27:func:toDisposable 31:func:debounce 33:func:handler 34:var:counter")
}

// From the Rust standard library / ripgrep (abridged).
const rsSrc = `//! Module docs
use std::fmt;

pub(crate) const MAX_LEN: usize = 64;
static mut COUNTER: u32 = 0;

#[derive(Clone, Debug)]
pub struct Searcher {
    config: Config,
}

pub enum BinaryDetection { None, Quit(u8) }

pub trait Sink {
    type Error;
    fn matched(&mut self) -> Result<bool, Self::Error>;
}

impl<S: Sink> fmt::Debug for Searcher {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
}

pub async unsafe fn run_raw() {}
macro_rules! fail {
    () => {};
}
mod tests;
`

func TestRust(t *testing.T) {
	check(t, "searcher.rs", rsSrc, "4:const:MAX_LEN 5:const:COUNTER 8:struct:Searcher 12:enum:BinaryDetection "+
		"14:trait:Sink 15:type:Error 16:func:matched 19:impl:Searcher 20:func:fmt 23:func:run_raw 24:macro:fail 27:module:tests")
}

// From Apache Commons Lang StringUtils (abridged).
const javaSrc = `package org.apache.commons.lang3;

/**
 * public static void notAMethod(String s) {
 */
public class StringUtils {
    public static final String EMPTY = "";

    public StringUtils() {
        super();
    }

    @Deprecated
    public static boolean isBlank(final CharSequence cs) {
        if (cs == null) {
            return true;
        }
        return false;
    }

    private static <T> List<T> toList(T[] items) {
        return new ArrayList<T>(items.length);
    }

    interface Matcher { }
    public enum Mode { A, B }
    record Point(int x, int y) {}
}
`

func TestJava(t *testing.T) {
	check(t, "StringUtils.java", javaSrc, "6:class:StringUtils 9:method:StringUtils 14:method:isBlank 21:method:toList "+
		"25:interface:Matcher 26:enum:Mode 27:class:Point")
}

// From SQLite and a C++ code base (abridged).
const cSrc = `#include <stdio.h>
#define SQLITE_OK 0
#define MAX(a,b) ((a)>(b)?(a):(b))

typedef struct sqlite3_file sqlite3_file;
struct sqlite3_io_methods {
  int iVersion;
};
typedef int (*sqlite3_callback)(void*,int,char**, char**);
typedef struct {
  int n;
} Buffer;

/*
** int not_a_function(void) {
*/
static int unixSync(sqlite3_file *id, int flags);

static int
unixRead(sqlite3_file *id, void *pBuf, int amt)
{
  if (amt < 0) {
    return SQLITE_IOERR;
  }
  return SQLITE_OK;
}

int Widget::resize(int w, int h) {
  return 0;
}

class Widget : public Base {
};
enum class Color { Red, Green };
`

func TestC(t *testing.T) {
	check(t, "os_unix.c", cSrc, "2:macro:SQLITE_OK 3:macro:MAX 5:typedef:sqlite3_file 6:type:sqlite3_io_methods "+
		"9:typedef:sqlite3_callback 12:typedef:Buffer 20:func:unixRead 28:func:resize 32:type:Widget 34:type:Color")
}

// From Rails ActiveSupport (abridged).
const rbSrc = `# frozen_string_literal: true
module ActiveSupport
  module Cache
    class Store
      DEFAULT_POOL_OPTIONS = { size: 5 }.freeze
      attr_reader :silence, :options

=begin
      def not_a_method
=end
      def self.retrieve_pool_options(options)
        options
      end

      def fetch(name, options = nil, &block)
        if block_given?
        end
      end

      def exist?(name)
      end
    end
  end
end
`

func TestRuby(t *testing.T) {
	check(t, "cache.rb", rbSrc, "2:module:ActiveSupport 3:module:Cache 4:class:Store 5:const:DEFAULT_POOL_OPTIONS "+
		"6:attr:silence 6:attr:options 11:method:retrieve_pool_options 15:method:fetch 20:method:exist?")
}

func TestUnknownLanguage(t *testing.T) {
	if s := Extract("notes.txt", []byte("def foo():\n")); s != nil {
		t.Fatalf("text file gave symbols: %v", s)
	}
}

func TestCRLF(t *testing.T) {
	check(t, "a.go", "package a\r\n\r\nfunc Foo() {}\r\n", "3:func:Foo")
	check(t, "a.py", "x = 1\r\ndef foo():\r\n  pass\r\n", "1:var:x 2:func:foo")
}

func FuzzExtract(f *testing.F) {
	f.Add([]byte(goSrc))
	f.Add([]byte(cSrc))
	f.Add([]byte("func (\ntype (\n\tA\n`"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, name := range []string{"a.go", "a.py", "a.ts", "a.rs", "A.java", "a.c", "a.rb"} {
			for _, s := range Extract(name, b) {
				if s.Line < 1 || s.Name == "" {
					t.Fatalf("%s: bad symbol %+v", name, s)
				}
			}
		}
	})
}
