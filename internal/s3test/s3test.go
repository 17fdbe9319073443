// Package s3test gives tests the S3 server `make test` starts (versitygw on 127.0.0.1, see gateway/): its
// endpoint and credentials from BERNSTEIN_TEST_S3_ENDPOINT, _ACCESS_KEY and _SECRET_KEY, and fresh buckets on it.
// Without them (plain `go test`) or under -short the tests that need it skip, saying how to run them.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// The variables `make test` sets for the server it started.
const (
	EnvEndpoint  = "BERNSTEIN_TEST_S3_ENDPOINT"
	EnvAccessKey = "BERNSTEIN_TEST_S3_ACCESS_KEY"
	EnvSecretKey = "BERNSTEIN_TEST_S3_SECRET_KEY"
)

// Server is the S3 server of this test run.
type Server struct {
	Endpoint, AccessKey, SecretKey string
	Client                         *minio.Client // an administrator's client, to make buckets and try what WORM forbids
}

// Need returns the server, or skips the test when there is none (or under -short).
func Need(t testing.TB) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the S3 server: make test starts one; go test -short skips it")
	}
	s, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		t.Skipf("needs the S3 server: %s is unset (make test starts versitygw and sets it)", EnvEndpoint)
	}
	return s
}

// FromEnv is the server the environment names; nil when it names none.
func FromEnv() (*Server, error) {
	s := &Server{Endpoint: os.Getenv(EnvEndpoint), AccessKey: os.Getenv(EnvAccessKey), SecretKey: os.Getenv(EnvSecretKey)}
	if s.Endpoint == "" {
		return nil, nil
	}
	u, err := url.Parse(s.Endpoint)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%s=%q is not http://HOST:PORT", EnvEndpoint, s.Endpoint)
	}
	s.Client, err = minio.New(u.Host, &minio.Options{Creds: credentials.NewStaticV4(s.AccessKey, s.SecretKey, ""),
		Secure: u.Scheme == "https", BucketLookup: minio.BucketLookupPath, Region: "us-east-1"})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Env is the AWS environment a git-bernstein run uses to reach the server.
func (s *Server) Env() map[string]string {
	return map[string]string{"AWS_ENDPOINT_URL": s.Endpoint, "AWS_ACCESS_KEY_ID": s.AccessKey,
		"AWS_SECRET_ACCESS_KEY": s.SecretKey, "AWS_REGION": "us-east-1"}
}

// Bucket makes a bucket of its own for the test, with Object Lock (and so versioning) or without.
func (s *Server) Bucket(t testing.TB, objectLock bool) string {
	t.Helper()
	name, err := s.MakeBucket(objectLock)
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// MakeBucket makes a bucket with a fresh name, with Object Lock or without, and returns its name.
func (s *Server) MakeBucket(objectLock bool) (string, error) {
	b := make([]byte, 6)
	rand.Read(b)
	name := "bernstein-" + hex.EncodeToString(b)
	if err := s.Client.MakeBucket(context.Background(), name, minio.MakeBucketOptions{ObjectLocking: objectLock}); err != nil {
		return "", fmt.Errorf("make bucket %s (object lock %v): %w", name, objectLock, err)
	}
	return name, nil
}
