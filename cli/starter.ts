// The files `pipewright init` writes (cli/init.ts), by path. The config's first line tells editors with
// the YAML language server (VS Code's YAML extension and others) where the config schema is: the
// installed package's copy, relative to the config, so completion and checks work offline.

export const SCHEMA_MODELINE = '# yaml-language-server: $schema=./node_modules/pipewright/dist/compiler/schema/config.schema.json';

export function starterFiles(version: string): Record<string, string> {
  return {
    'api.yaml': `${SCHEMA_MODELINE}
# A pipewright config: each interface is an HTTP route (POST /greet here) and the actions it runs.
#   npx pipewright serve api.yaml     serves it on http://127.0.0.1:8080
#   npx pipewright test api.yaml      sends accepts.example, checks produces and tests
#   npx pipewright compile api.yaml   writes build/api/server.mjs, a standalone server (--out DIR)
interfaces:
  greet:
    summary: Greets the caller by name.
    method: POST
    accepts:
      example: { name: Ada }
    actions:
      - name: Greeting
        input: a|body|
        assert:
          tests:
            - value: a|body::name|
              is_not_empty: true
          error_message: "name is required"
        post_transforms:
          - add_attribute:
              message: "Hello, a|body::name|!"
          - keep_attributes: [message]
        output: http
    produces:
      example: { message: "Hello, Ada!" }
      schema:
        type: object
        required: [message]
    tests:
      - value: a|Greeting::message|
        is_equal_to: "Hello, Ada!"
`,
    'package.json': `${JSON.stringify({
      private: true,
      scripts: { check: 'pipewright check api.yaml', test: 'pipewright test api.yaml', build: 'pipewright compile api.yaml --out build', start: 'pipewright serve api.yaml' },
      devDependencies: { pipewright: `^${version}` },
    }, null, 2)}\n`,
    '.gitignore': 'node_modules/\nbuild/\n*.log\n',
    '.github/workflows/pipewright.yml': `# Checks and tests the config, compiles it and keeps the server as the run's artifact.
name: pipewright
on:
  push:
  pull_request:
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm install --no-audit --no-fund
      - run: npx pipewright check api.yaml
      - run: npx pipewright test api.yaml
      - run: npx pipewright compile api.yaml --out build
      - uses: actions/upload-artifact@v4
        with:
          name: server
          path: build/
`,
  };
}
