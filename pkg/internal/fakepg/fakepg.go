// Package fakepg is a listening server that speaks just enough of the
// PostgreSQL protocol to see what a client sends before it is admitted: it
// declines TLS, reads the startup message, asks for a cleartext password,
// records it, and refuses the login. Tests point a configuration at it to
// prove what a client would hand to a server it should not trust; Cases
// and Setup are the repository index.dsn cases guild-recall's and
// rtch-mcp's tests run against such servers.
package fakepg

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
)

// Login is what one connection sent.
type Login struct {
	// Params are the startup parameters (user, database, …).
	Params map[string]string
	// Password is the password message's text; Sent is false when the
	// client sent none (it hung up when asked).
	Password string
	Sent     bool
}

// Server is a listening fake server.
type Server struct {
	ln     net.Listener
	mu     sync.Mutex
	logins []Login
	wg     sync.WaitGroup
}

// Listen starts a server on network and address ("tcp", "127.0.0.1:0";
// "unix", a socket path).
func Listen(network, address string) (*Server, error) {
	ln, err := net.Listen(network, address)
	if err != nil {
		return nil, err
	}
	s := &Server{ln: ln}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

// Addr is the listening address.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Logins are the connections seen so far.
func (s *Server) Logins() []Login {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Login(nil), s.logins...)
}

// Close stops listening and waits for the connections in flight.
func (s *Server) Close() error {
	err := s.ln.Close()
	s.wg.Wait()
	return err
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			l, ok := handle(c)
			if ok {
				s.mu.Lock()
				s.logins = append(s.logins, l)
				s.mu.Unlock()
			}
		}()
	}
}

const (
	sslRequest    = 80877103
	gssencRequest = 80877104
	protocol3     = 196608
)

// handle speaks to one client: encryption requests declined, the startup
// message read, a cleartext password asked for and read.
func handle(c net.Conn) (Login, bool) {
	r := bufio.NewReader(c)
	var l Login
	for {
		body, err := untyped(r)
		if err != nil || len(body) < 4 {
			return l, false
		}
		switch binary.BigEndian.Uint32(body) {
		case sslRequest, gssencRequest:
			if _, err := c.Write([]byte{'N'}); err != nil {
				return l, false
			}
			continue
		case protocol3:
			l.Params = params(body[4:])
		default:
			return l, false
		}
		break
	}
	// AuthenticationCleartextPassword.
	if _, err := c.Write([]byte{'R', 0, 0, 0, 8, 0, 0, 0, 3}); err != nil {
		return l, true
	}
	typ, err := r.ReadByte()
	if err != nil || typ != 'p' {
		return l, true
	}
	body, err := untyped(r)
	if err != nil {
		return l, true
	}
	l.Password, l.Sent = string(bytes.TrimSuffix(body, []byte{0})), true
	fail := []byte("SFATAL\x00C28P01\x00Mpassword authentication failed (fake server)\x00\x00")
	msg := binary.BigEndian.AppendUint32([]byte{'E'}, uint32(4+len(fail)))
	c.Write(append(msg, fail...))
	return l, true
}

// untyped reads a length-prefixed message body.
func untyped(r *bufio.Reader) ([]byte, error) {
	var n uint32
	if err := binary.Read(r, binary.BigEndian, &n); err != nil {
		return nil, err
	}
	if n < 4 || n > 1<<16 {
		return nil, errors.New("bad message length")
	}
	body := make([]byte, n-4)
	_, err := io.ReadFull(r, body)
	return body, err
}

// params decodes the startup message's name/value pairs.
func params(b []byte) map[string]string {
	out := map[string]string{}
	parts := bytes.Split(bytes.TrimRight(b, "\x00"), []byte{0})
	for i := 0; i+1 < len(parts); i += 2 {
		out[string(parts[i])] = string(parts[i+1])
	}
	return out
}
