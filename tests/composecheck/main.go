// Loads a compose file with compose-go, the loader Docker Compose v2 uses (schema validation, interpolation,
// normalization), and prints the resulting project as JSON: a check of docker-compose.yml without a Docker engine.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: composecheck docker-compose.yml [KEY=VALUE ...]")
		os.Exit(2)
	}
	opts, err := cli.NewProjectOptions([]string{os.Args[1]}, cli.WithEnv(os.Args[2:]), cli.WithDotEnv)
	if err == nil {
		var project any
		project, err = opts.LoadProject(context.Background())
		if err == nil {
			out, _ := json.MarshalIndent(project, "", "  ")
			fmt.Println(string(out))
			return
		}
	}
	fmt.Fprintln(os.Stderr, "compose file invalid:", err)
	os.Exit(1)
}
