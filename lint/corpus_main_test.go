package lint

import (
	"testing"

	"github.com/kafkalint/kafkalint/internal/testcorpus"
)

func TestMain(m *testing.M) { testcorpus.Main(m) }
