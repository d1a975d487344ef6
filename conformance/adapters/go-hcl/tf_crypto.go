// SPDX-License-Identifier: MPL-2.0
package main

import (
	"crypto/md5"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strings"

	googleuuid "github.com/google/uuid"
	hashiuuid "github.com/hashicorp/go-uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/ssh"
)

// Terraform's hash and crypto functions (Terraform's
// internal/lang/funcs/crypto.go on its main branch): md5, sha1, sha256,
// sha512, base64sha256, base64sha512, uuid, uuidv5, bcrypt, rsadecrypt.
// The file hashes (filemd5, ...) are in tf_files.go.
//
// Library versions (Debian's, where Terraform pins others):
//   - Go 1.19's crypto: Go 1.24 and later refuse RSA keys shorter than
//     1024 bits (GODEBUG rsa1024min), so Terraform built with them fails
//     rsadecrypt with such a key where the reference decrypts: cases should
//     use keys of 1024 bits or more.
//   - golang.org/x/crypto 0.4.0 (Terraform pins a much later one): its
//     bcrypt truncates passwords past 72 bytes where later ones refuse
//     them; the refusal is reproduced here (tfBcryptFunc). Its ssh key
//     parser may know fewer key formats than Terraform's.
//   - github.com/google/uuid 1.3.0 and github.com/hashicorp/go-uuid 1.0.2
//     (Terraform pins 1.6.0 and 1.0.3): same results for what Terraform
//     uses of them.
//
// uuid and bcrypt are impure (random): Terraform returns unknown for them
// while planning and a fresh value otherwise; the adapter answers as in
// apply or console, a fresh value each call, so cases can check only its
// shape (e.g. length(uuid()) == 36, regex(...), bcrypt's "$2a$10$" prefix
// and length 60) or errors.

// hashFunc is a function of one string that hashes its UTF-8 bytes and
// writes the digest with enc.
func hashFunc(newHash func() hash.Hash, enc func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			h := newHash()
			h.Write([]byte(args[0].AsString()))
			return cty.StringVal(enc(h.Sum(nil))), nil
		},
	})
}

// Terraform's md5, sha1, sha256, sha512 (lower-case hex digests) and
// base64sha256, base64sha512 (standard base64 digests).
var (
	tfMd5Func          = hashFunc(md5.New, hex.EncodeToString)
	tfSha1Func         = hashFunc(sha1.New, hex.EncodeToString)
	tfSha256Func       = hashFunc(sha256.New, hex.EncodeToString)
	tfSha512Func       = hashFunc(sha512.New, hex.EncodeToString)
	tfBase64Sha256Func = hashFunc(sha256.New, base64.StdEncoding.EncodeToString)
	tfBase64Sha512Func = hashFunc(sha512.New, base64.StdEncoding.EncodeToString)
)

// tfUUIDFunc is Terraform's uuid(): hashicorp/go-uuid's GenerateUUID, 16
// random bytes from crypto/rand written as 8-4-4-4-12 lower-case hex (no
// version or variant bits are set).
var tfUUIDFunc = function.New(&function.Spec{
	Type: function.StaticReturnType(cty.String),
	Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
		s, err := hashiuuid.GenerateUUID()
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(s), nil
	},
})

// tfUUIDv5Func is Terraform's uuidv5(namespace, name): google/uuid's
// NewSHA1 of name in namespace, which is "dns", "url", "oid", "x500" or a
// UUID google/uuid's Parse accepts (an other one is a call error carrying
// Parse's message).
var tfUUIDv5Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "namespace", Type: cty.String},
		{Name: "name", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var ns googleuuid.UUID
		switch given := args[0].AsString(); given {
		case "dns":
			ns = googleuuid.NameSpaceDNS
		case "url":
			ns = googleuuid.NameSpaceURL
		case "oid":
			ns = googleuuid.NameSpaceOID
		case "x500":
			ns = googleuuid.NameSpaceX500
		default:
			parsed, err := googleuuid.Parse(given)
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("uuidv5() doesn't support namespace %s (%v)", given, err)
			}
			ns = parsed
		}
		return cty.StringVal(googleuuid.NewSHA1(ns, []byte(args[1].AsString())).String()), nil
	},
})

// errBcryptTooLong is what the x/crypto Terraform pins returns for a
// password longer than 72 bytes (Debian's 0.4.0 truncates it instead).
var errBcryptTooLong = errors.New("bcrypt: password length exceeds 72 bytes")

// tfBcryptFunc is Terraform's bcrypt(str[, cost]): x/crypto's
// GenerateFromPassword with a random salt, "$2a$" hashes. The cost is 10
// by default; the first extra argument must convert to a Go int (a
// fraction or a huge number is a call error), and is read before a second
// extra argument is refused ("bcrypt() takes no more than two
// arguments"). A cost below 4 means 10, above 31 is a call error, and so is
// a password over 72 bytes (checked first, as the x/crypto Terraform pins
// does).
var tfBcryptFunc = function.New(&function.Spec{
	Params:   []function.Parameter{{Name: "str", Type: cty.String}},
	VarParam: &function.Parameter{Name: "cost", Type: cty.Number},
	Type:     function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		cost := 10
		if len(args) > 1 {
			if err := gocty.FromCtyValue(args[1], &cost); err != nil {
				return cty.UnknownVal(cty.String), err
			}
		}
		if len(args) > 2 {
			return cty.UnknownVal(cty.String), errors.New("bcrypt() takes no more than two arguments")
		}
		password := []byte(args[0].AsString())
		var hashed []byte
		err := errBcryptTooLong
		if len(password) <= 72 {
			hashed, err = bcrypt.GenerateFromPassword(password, cost)
		}
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("error occured generating password %s", err.Error())
		}
		return cty.StringVal(string(hashed)), nil
	},
})

// tfRsaDecryptFunc is Terraform's rsadecrypt(ciphertext, privatekey): the
// base64 ciphertext (not base64: an argument error quoting it) decrypted
// with PKCS #1 v1.5 padding by a private key that x/crypto/ssh's
// ParseRawPrivateKey reads (PEM PKCS #1, PKCS #8, OpenSSH; a parse error
// is an argument error, ASN.1 syntax errors reworded; a key that is not
// RSA an argument error printing it with Go's %t verb, as Terraform does).
// A decryption failure is a call error.
var tfRsaDecryptFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "ciphertext", Type: cty.String},
		{Name: "privatekey", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		text := args[0].AsString()
		ciphertext, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "failed to decode input %q: cipher text must be base64-encoded", text)
		}
		key, err := ssh.ParseRawPrivateKey([]byte(args[1].AsString()))
		if err != nil {
			var msg string
			switch e := err.(type) {
			case asn1.SyntaxError:
				msg = strings.ReplaceAll(e.Error(), "asn1: syntax error", "invalid ASN1 data in the given private key")
			case asn1.StructuralError:
				// Terraform's replacement text misspells "structure", so
				// it never matches and Go's message stays as it is.
				msg = strings.ReplaceAll(e.Error(), "asn1: struture error", "invalid ASN1 data in the given private key")
			default:
				msg = fmt.Sprintf("invalid private key: %s", e)
			}
			return cty.UnknownVal(cty.String), function.NewArgError(1, errors.New(msg))
		}
		rsaKey, ok := key.(*rsa.PrivateKey)
		if !ok {
			// Go's %t on a non-bool prints "%!t(TYPE=VALUE)"; the format is
			// put together at run time because go vet rightly objects.
			verb := "t"
			return cty.UnknownVal(cty.String), function.NewArgError(1, fmt.Errorf("invalid private key type %"+verb, key))
		}
		plain, err := rsa.DecryptPKCS1v15(nil, rsaKey, ciphertext)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decrypt: %s", err)
		}
		return cty.StringVal(string(plain)), nil
	},
})
