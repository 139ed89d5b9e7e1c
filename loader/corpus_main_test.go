package loader

import (
	"testing"

	"github.com/kafkalint/kafkalint/internal/testcorpus"
)

// TestMain says in one line which tests skipped for want of the real-world
// corpus (testcorpus.Main).
func TestMain(m *testing.M) { testcorpus.Main(m) }
