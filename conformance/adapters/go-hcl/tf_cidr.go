// SPDX-License-Identifier: MPL-2.0
package main

import (
	"fmt"
	"math/big"
	"net"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Terraform's IP network functions (Terraform's internal/lang/funcs/cidr.go
// on its main branch): cidrhost, cidrnetmask, cidrsubnet, cidrsubnets. The
// arithmetic is go-cidr's (Debian's 1.1.0, the version Terraform pins);
// the address parsing is Terraform's own (internal/ipaddr), which keeps
// the rules of Go 1.16's net package, before Go refused IPv4 parts with
// leading zeros: parseCIDR below behaves the same, written here.

// cidrDecimal reads the decimal digits at the start of s: their value,
// how many there are, and false when there are none or the value reaches
// 0xFFFFFF (any number of leading zeros is fine).
func cidrDecimal(s string) (value, length int, ok bool) {
	for length < len(s) && s[length] >= '0' && s[length] <= '9' {
		value = value*10 + int(s[length]-'0')
		if value >= 0xFFFFFF {
			return 0, length, false
		}
		length++
	}
	return value, length, length > 0
}

// cidrHex is cidrDecimal for hexadecimal digits (either case).
func cidrHex(s string) (value, length int, ok bool) {
	for ; length < len(s); length++ {
		c := s[length]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return value, length, length > 0
		}
		value = value*16 + d
		if value >= 0xFFFFFF {
			return 0, length, false
		}
	}
	return value, length, length > 0
}

// parseIPv4Lenient reads four dot-separated decimal parts of at most 255
// each (leading zeros allowed) making up all of s, as a 16-byte IPv4 address;
// nil if s is not one.
func parseIPv4Lenient(s string) net.IP {
	var parts [4]byte
	for i := range parts {
		if i > 0 {
			if s == "" || s[0] != '.' {
				return nil
			}
			s = s[1:]
		}
		v, n, ok := cidrDecimal(s)
		if !ok || v > 255 {
			return nil
		}
		parts[i] = byte(v)
		s = s[n:]
	}
	if s != "" {
		return nil
	}
	return net.IPv4(parts[0], parts[1], parts[2], parts[3])
}

// parseIPv6Lenient reads an IPv6 address: groups of hex digits of at most
// 0xFFFF separated by ":", at most one "::" standing for the missing zero
// groups, and optionally a lenient IPv4 address as the last 32 bits (only
// where it ends the address: after a "::", or as the 7th and 8th groups).
// nil if s is not one.
func parseIPv6Lenient(s string) net.IP {
	ip := make(net.IP, net.IPv6len)
	gap := -1 // where "::" stands, as a byte offset into ip
	if len(s) >= 2 && s[:2] == "::" {
		gap, s = 0, s[2:]
		if s == "" {
			return ip
		}
	}
	filled := 0
	for filled < net.IPv6len {
		v, n, ok := cidrHex(s)
		if !ok || v > 0xFFFF {
			return nil
		}
		if n < len(s) && s[n] == '.' {
			// The rest is an IPv4 address.
			if (gap < 0 && filled != net.IPv6len-net.IPv4len) || filled+net.IPv4len > net.IPv6len {
				return nil
			}
			v4 := parseIPv4Lenient(s)
			if v4 == nil {
				return nil
			}
			copy(ip[filled:], v4[12:16])
			filled += net.IPv4len
			s = ""
			break
		}
		ip[filled], ip[filled+1] = byte(v>>8), byte(v)
		filled += 2
		s = s[n:]
		if s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return nil
		}
		s = s[1:]
		if s[0] == ':' {
			if gap >= 0 {
				return nil
			}
			gap, s = filled, s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" {
		return nil
	}
	switch {
	case filled < net.IPv6len && gap < 0:
		return nil
	case filled == net.IPv6len && gap >= 0:
		return nil
	case filled < net.IPv6len:
		// Move what follows the gap to the end and zero the gap.
		shift := net.IPv6len - filled
		copy(ip[gap+shift:], ip[gap:filled])
		for i := gap; i < gap+shift; i++ {
			ip[i] = 0
		}
	}
	return ip
}

// parseCIDR is Terraform's ParseCIDR: "address/length", split at the first
// "/"; the address IPv4 (lenient) or else IPv6 (lenient); the length
// decimal digits only (leading zeros allowed) up to the address's bits.
// The network is the address masked to the length (4 bytes for IPv4).
// Anything else is net's ParseError "invalid CIDR address: <s>".
func parseCIDR(s string) (*net.IPNet, error) {
	slash := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			slash = i
			break
		}
	}
	bad := &net.ParseError{Type: "CIDR address", Text: s}
	if slash < 0 {
		return nil, bad
	}
	addr, length := s[:slash], s[slash+1:]
	bits := 8 * net.IPv4len
	ip := parseIPv4Lenient(addr)
	if ip == nil {
		bits = 8 * net.IPv6len
		ip = parseIPv6Lenient(addr)
	}
	n, used, ok := cidrDecimal(length)
	if ip == nil || !ok || used != len(length) || n > bits {
		return nil, bad
	}
	mask := net.CIDRMask(n, bits)
	return &net.IPNet{IP: ip.Mask(mask), Mask: mask}, nil
}

// cidrArg parses a prefix argument; failures are call errors.
func cidrArg(v cty.Value) (*net.IPNet, error) {
	network, err := parseCIDR(v.AsString())
	if err != nil {
		return nil, fmt.Errorf("invalid CIDR expression: %s", err)
	}
	return network, nil
}

// tfCidrHostFunc is Terraform's cidrhost(prefix, hostnum): go-cidr's
// HostBig (a negative hostnum counts from the end of the range). hostnum
// must be a whole number (read before the prefix is parsed).
var tfCidrHostFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var hostnum *big.Int
		if err := gocty.FromCtyValue(args[1], &hostnum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		network, err := cidrArg(args[0])
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		ip, err := cidr.HostBig(network, hostnum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(ip.String()), nil
	},
})

// tfCidrNetmaskFunc is Terraform's cidrnetmask(prefix): the IPv4 netmask in
// dotted form; an IPv6 prefix is a call error.
var tfCidrNetmaskFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		network, err := cidrArg(args[0])
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		if network.IP.To4() == nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	},
})

// tfCidrSubnetFunc is Terraform's cidrsubnet(prefix, newbits, netnum):
// go-cidr's SubnetBig. newbits must convert to a Go int and netnum be a
// whole number, both read before the prefix is parsed.
var tfCidrSubnetFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var newbits int
		if err := gocty.FromCtyValue(args[1], &newbits); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		var netnum *big.Int
		if err := gocty.FromCtyValue(args[2], &netnum); err != nil {
			return cty.UnknownVal(cty.String), err
		}
		network, err := cidrArg(args[0])
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		subnet, err := cidr.SubnetBig(network, newbits, netnum)
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(subnet.String()), nil
	},
})

// tfCidrSubnetsFunc is Terraform's cidrsubnets(prefix, newbits...):
// consecutive subnets of prefix, one per newbits, each the next one of its
// size after the previous (go-cidr's PreviousSubnet of the first, then
// NextSubnet). Errors are argument errors: on the prefix when it does not
// parse; on a newbits that does not convert to an int, is below 1 or
// above 32, makes the prefix longer than the address, or leaves no room
// for the subnet inside the prefix. No newbits gives an empty list.
var tfCidrSubnetsFunc = function.New(&function.Spec{
	Params:   []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam: &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:     function.StaticReturnType(cty.List(cty.String)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		network, err := parseCIDR(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid CIDR expression: %s", err)
		}
		base, _ := network.Mask.Size()
		lengths := args[1:]
		if len(lengths) == 0 {
			return cty.ListValEmpty(cty.String), nil
		}
		var first int
		if err := gocty.FromCtyValue(lengths[0], &first); err != nil {
			return cty.UnknownVal(cty.String), function.NewArgError(1, err)
		}
		current, _ := cidr.PreviousSubnet(network, first+base)
		out := make([]cty.Value, len(lengths))
		for i, arg := range lengths {
			var extra int
			if err := gocty.FromCtyValue(arg, &extra); err != nil {
				return cty.UnknownVal(cty.String), function.NewArgError(i+1, err)
			}
			if extra < 1 {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(i+1, "must extend prefix by at least one bit")
			}
			if extra > 32 {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(i+1, "may not extend prefix by more than 32 bits")
			}
			length := base + extra
			if bits := len(network.IP) * 8; length > bits {
				family := map[int]string{32: "IPv4", 128: "IPv6"}[bits]
				if family == "" {
					family = "IP"
				}
				return cty.UnknownVal(cty.String), function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for an %s address", length, family)
			}
			next, rollover := cidr.NextSubnet(current, length)
			if rollover || !network.Contains(next.IP) {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", length, current.String())
			}
			current = next
			out[i] = cty.StringVal(current.String())
		}
		return cty.ListVal(out), nil
	},
})
