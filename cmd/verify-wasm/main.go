//go:build js && wasm

// Command verify-wasm is the verifier for the browser page (`git bernstein verify-page`): built with GOOS=js
// GOARCH=wasm, it registers one JavaScript function and waits.
//
//	bernsteinVerify(archive: Uint8Array, signature: Uint8Array|null, cards: [{name, data: Uint8Array}],
//	                archiveName?: string, sidecars?: {sig: Uint8Array|null, attestation: Uint8Array|null,
//	                           sigstore: Uint8Array|null}, policy?: {name, data: Uint8Array}|null) → JSON string
//
// The string is inbrowser.Result: the report as `verify --json` prints it, and its text.
package main

import (
	"syscall/js"

	"github.com/git-bernstein/git-bernstein/internal/verifypage/inbrowser"
)

func bytesOf(v js.Value) []byte {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

func verifyJS(_ js.Value, args []js.Value) any {
	if len(args) < 3 || len(args) > 6 {
		return js.ValueOf(`{"error":"bernsteinVerify takes (archive, signature, cards[, archiveName[, sidecars[, policy]]])"}`)
	}
	name := ""
	if len(args) >= 4 && args[3].Type() == js.TypeString {
		name = args[3].String()
	}
	var side inbrowser.Sidecars
	if len(args) >= 5 && args[4].Type() == js.TypeObject {
		side.SSHSig = present(args[4].Get("sig"))
		side.Attestation = present(args[4].Get("attestation"))
		side.SigstoreBundle = present(args[4].Get("sigstore"))
	}
	archive := bytesOf(args[0])
	var sig []byte
	if !args[1].IsNull() && !args[1].IsUndefined() {
		sig = bytesOf(args[1])
		if sig == nil {
			sig = []byte{} // present but empty: malformed, as the CLI says
		}
	}
	var cards []inbrowser.Card
	for i := 0; i < args[2].Length(); i++ {
		c := args[2].Index(i)
		cards = append(cards, inbrowser.Card{Name: c.Get("name").String(), Data: bytesOf(c.Get("data"))})
	}
	var pol *inbrowser.PolicyFile
	if len(args) == 6 && args[5].Type() == js.TypeObject {
		pol = &inbrowser.PolicyFile{Name: args[5].Get("name").String(), Data: present(args[5].Get("data"))}
	}
	return js.ValueOf(string(inbrowser.CheckPolicy(name, archive, sig, cards, side, pol)))
}

// present is a file the user gave (empty bytes when it is empty, which the checks call malformed), nil when none.
func present(v js.Value) []byte {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	if b := bytesOf(v); b != nil {
		return b
	}
	return []byte{}
}

func main() {
	js.Global().Set("bernsteinVerify", js.FuncOf(verifyJS))
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("bernstein-ready"))
	select {}
}
