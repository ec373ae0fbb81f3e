// Package pgtest gives tests a fresh database on the PostgreSQL server named
// by RTCH_TEST_PG_DSN (.ci/pgcluster starts one; .ci/run exports it). Each
// database is created for one test and dropped after it, so tests run in
// parallel without seeing each other's wikis.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvDSN is the variable holding the server's admin DSN.
const EnvDSN = "RTCH_TEST_PG_DSN"

// SkipMessage is what a test says when there is no server.
const SkipMessage = EnvDSN + " is not set: no PostgreSQL server for the postgres backend tests " +
	"(start one with .ci/pgcluster start DIR and export the DSN it prints; .ci/run does)"

// Admin returns the admin DSN, or skips t.
func Admin(t testing.TB) string {
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		t.Skip(SkipMessage)
	}
	return dsn
}

// DSN creates a database for t and returns its DSN; it skips t when there is
// no server and drops the database when t ends.
func DSN(t testing.TB) string {
	admin := Admin(t)
	dsn, drop, err := NewDatabase(context.Background(), admin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return dsn
}

// NewDatabase creates an empty database on the admin DSN's server and
// returns a DSN naming it and the function that drops it.
func NewDatabase(ctx context.Context, admin string) (string, func(), error) {
	var b [6]byte
	rand.Read(b[:])
	name := "rtch_t_" + hex.EncodeToString(b[:])
	if err := exec(ctx, admin, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("pgtest: create database: %w", err)
	}
	cfg, err := pgx.ParseConfig(admin)
	if err != nil {
		return "", nil, err
	}
	dsn := fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable", cfg.Host, cfg.Port, cfg.User, name)
	drop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		exec(ctx, admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	return dsn, drop, nil
}

// Exec runs one statement on dsn.
func Exec(ctx context.Context, dsn, sql string, args ...any) error {
	return exec(ctx, dsn, sql, args...)
}

func exec(ctx context.Context, dsn, sql string, args ...any) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql, args...)
	return err
}

// RolePassword is the password of the role rtch_pwcheck.
const RolePassword = "rtch-right-password"

// PasswordRole makes the role rtch_pwcheck (the one role .ci/pgcluster
// checks a password for) log in with RolePassword and returns a DSN for it
// on db's server and database, giving the password given.
func PasswordRole(ctx context.Context, admin, db, given string) (string, error) {
	// Tests run in parallel: the lock makes one of them create the role,
	// the others see it (a concurrent CREATE ROLE fails with a unique
	// violation, not duplicate_object).
	err := exec(ctx, admin, `DO $$ BEGIN
	PERFORM pg_advisory_xact_lock(7237);
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'rtch_pwcheck') THEN
		CREATE ROLE rtch_pwcheck LOGIN;
	END IF;
END $$`)
	if err != nil {
		return "", err
	}
	if err := exec(ctx, admin, "DO $$ BEGIN PERFORM pg_advisory_xact_lock(7237); ALTER ROLE rtch_pwcheck PASSWORD '"+RolePassword+"'; END $$"); err != nil {
		return "", err
	}
	cfg, err := pgx.ParseConfig(db)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("host=%s port=%d user=rtch_pwcheck password=%s dbname=%s sslmode=disable", cfg.Host, cfg.Port, given, cfg.Database), nil
}
