/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_meta.c — what each built-in function does, in a sentence for the
 * function and one per parameter, and the function table of `tfexpr
 * functions` built from the registered functions and those sentences.
 *
 * The descriptions are ours (Terraform keeps its own, which we do not
 * copy).  They cover every function of Terraform's library and
 * OpenTofu's three, registered yet or not: test_funcs_meta.c checks that
 * each registered function has one, with the same parameters by name.
 *
 * The JSON table has the shape of `terraform metadata functions -json`
 * (Terraform's internal/command/jsonfunction), so that tools that read
 * Terraform's can read ours: {"format_version":"1.0",
 * "function_signatures":{NAME:{"description","return_type","parameters",
 * "variadic_parameter"}}}, names sorted, the members of a signature in
 * Terraform's order, a parameter as {"name","description","is_nullable"
 * (only when true),"type"}, types in cty's JSON type syntax.  As Terraform
 * does:
 *  - the return type is what the function's type function gives for one
 *    unknown argument of each parameter's type (and one for the variadic
 *    parameter);
 *  - try, can, templatestring and convert, whose parameters take
 *    expressions or type constraints, have signatures fixed by name
 *    (fixed_signatures below);
 *  - list and map (removed functions) and type (console only) are left
 *    out.
 */
#include "funcs_meta.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ctx.h"
#include "func.h"
#include "jsonio.h"
#include "type.h"
#include "value.h"

/* ---- The descriptions, sorted by name ---- */

static const tfx_fn_meta descriptions[] = {
    {"abs", "Returns the absolute value of a number.",
     {{"num", "The number whose absolute value is wanted."}}},
    {"abspath",
     "Makes a filesystem path absolute, joining a relative one to the current working "
     "directory.",
     {{"path", "The path to make absolute."}}},
    {"alltrue",
     "Returns true when every element of a collection is true or the string \"true\"; true "
     "for an empty collection.",
     {{"list", "The collection of booleans to test."}}},
    {"anytrue",
     "Returns true when some element of a collection is true or the string \"true\"; false "
     "for an empty collection.",
     {{"list", "The collection of booleans to test."}}},
    {"assumeequal",
     "Returns the expected value when the actual value, converted to its type, may equal it, "
     "and fails when the two certainly differ.",
     {{"actual_value", "The value whose equality is assumed."},
      {"expected_value", "The value it is assumed to equal, and the result."}}},
    {"assumelistlength",
     "Returns the list when its length may lie within the bounds, with that length range "
     "assumed for what follows; fails when it certainly does not.",
     {{"value", "The list whose length is assumed."},
      {"min_length", "The least length assumed."},
      {"max_length", "The greatest length assumed."}}},
    {"assumelistlengthmax",
     "Returns the list when its length may be at most the bound, with that assumed for what "
     "follows; fails when it certainly is not.",
     {{"value", "The list whose length is assumed."},
      {"max_length", "The greatest length assumed."}}},
    {"assumelistlengthmin",
     "Returns the list when its length may be at least the bound, with that assumed for what "
     "follows; fails when it certainly is not.",
     {{"value", "The list whose length is assumed."},
      {"min_length", "The least length assumed."}}},
    {"assumemaplength",
     "Returns the map when its length may lie within the bounds, with that length range "
     "assumed for what follows; fails when it certainly does not.",
     {{"value", "The map whose length is assumed."},
      {"min_length", "The least length assumed."},
      {"max_length", "The greatest length assumed."}}},
    {"assumemaplengthmax",
     "Returns the map when its length may be at most the bound, with that assumed for what "
     "follows; fails when it certainly is not.",
     {{"value", "The map whose length is assumed."},
      {"max_length", "The greatest length assumed."}}},
    {"assumemaplengthmin",
     "Returns the map when its length may be at least the bound, with that assumed for what "
     "follows; fails when it certainly is not.",
     {{"value", "The map whose length is assumed."},
      {"min_length", "The least length assumed."}}},
    {"assumenotnull",
     "Returns the value when it may be other than null, with that assumed for what follows; "
     "fails for a null.",
     {{"value", "The value assumed not to be null; its type must be known."}}},
    {"assumesetlength",
     "Returns the set when its length may lie within the bounds, with that length range "
     "assumed for what follows; fails when it certainly does not.",
     {{"value", "The set whose length is assumed."},
      {"min_length", "The least length assumed."},
      {"max_length", "The greatest length assumed."}}},
    {"assumesetlengthmax",
     "Returns the set when its length may be at most the bound, with that assumed for what "
     "follows; fails when it certainly is not.",
     {{"value", "The set whose length is assumed."},
      {"max_length", "The greatest length assumed."}}},
    {"assumesetlengthmin",
     "Returns the set when its length may be at least the bound, with that assumed for what "
     "follows; fails when it certainly is not.",
     {{"value", "The set whose length is assumed."},
      {"min_length", "The least length assumed."}}},
    {"assumestringprefix",
     "Returns the string when it may start with the prefix, with that prefix assumed for what "
     "follows; fails when it certainly does not.",
     {{"value", "The string whose prefix is assumed."},
      {"prefix", "The prefix assumed; a last character that could combine with what follows "
                 "is left out."}}},
    {"base64decode", "Decodes standard Base64 text whose bytes are UTF-8 and returns them as a string.",
     {{"str", "The Base64 text to decode."}}},
    {"base64encode", "Encodes the UTF-8 bytes of a string in standard Base64.",
     {{"str", "The string to encode."}}},
    {"base64gunzip",
     "Decodes standard Base64 text and decompresses the gzip data it holds, giving its bytes "
     "as a string.",
     {{"str", "The Base64 text of gzip-compressed data."}}},
    {"base64gzip", "Compresses the UTF-8 bytes of a string with gzip and encodes the result in Base64.",
     {{"str", "The string to compress."}}},
    {"base64sha256",
     "Computes the SHA-256 digest of the UTF-8 bytes of a string and encodes the raw digest "
     "in Base64.",
     {{"str", "The string to hash."}}},
    {"base64sha512",
     "Computes the SHA-512 digest of the UTF-8 bytes of a string and encodes the raw digest "
     "in Base64.",
     {{"str", "The string to hash."}}},
    {"basename", "Returns the last element of a filesystem path.",
     {{"path", "The path to take the last element of."}}},
    {"bcrypt",
     "Hashes a string with bcrypt into a Modular Crypt Format string, with a new random salt "
     "at each call.",
     {{"str", "The password to hash."},
      {"cost", "The optional work factor, a base-2 logarithm; 10 when it is not given."}}},
    {"can", "Evaluates an expression and returns whether it gave a value without errors.",
     {{"expression", "The expression to evaluate."}}},
    {"ceil", "Rounds a number up to the nearest whole number.",
     {{"num", "The number to round up."}}},
    {"chomp", "Removes the line breaks at the end of a string.",
     {{"str", "The string to remove the trailing line breaks of."}}},
    {"chunklist", "Splits a list into consecutive lists of a given size, the last one possibly shorter.",
     {{"list", "The list to split."}, {"size", "The number of elements of each chunk."}}},
    {"cidrcontains", "Returns whether an IP address or prefix lies within a CIDR prefix.",
     {{"containing_prefix", "The prefix, in CIDR notation, that may contain the other."},
      {"contained_ip_or_prefix", "The IP address or CIDR prefix to test."}}},
    {"cidrhost", "Returns the IP address of a host, given by its number, within a CIDR prefix.",
     {{"prefix", "The network prefix, in CIDR notation."},
      {"hostnum", "The number of the host within the prefix; a negative one counts from the end."}}},
    {"cidrnetmask", "Returns the subnet mask of an IPv4 CIDR prefix, in dotted decimal notation.",
     {{"prefix", "The IPv4 network prefix, in CIDR notation."}}},
    {"cidrsubnet",
     "Returns the address of a subnet of a CIDR prefix: the prefix extended by some bits that "
     "hold the subnet's number.",
     {{"prefix", "The network prefix, in CIDR notation."},
      {"newbits", "How many bits to add to the prefix length."},
      {"netnum", "The number of the subnet, which must fit in newbits bits."}}},
    {"cidrsubnets",
     "Allocates consecutive subnets of a CIDR prefix, one per prefix extension given, and "
     "returns their addresses.",
     {{"prefix", "The network prefix, in CIDR notation."},
      {"newbits", "For each subnet in turn, how many bits to add to the prefix length."}}},
    {"coalesce",
     "Returns the first argument that is neither null nor an empty string, all of them "
     "converted to one type first.",
     {{"vals", "The candidate values, in order of preference."}}},
    {"coalescelist", "Returns the first of its list or tuple arguments that is not empty.",
     {{"vals", "The lists or tuples to test, in order."}}},
    {"compact", "Removes the empty strings and the nulls from a list of strings.",
     {{"list", "The list of strings to compact."}}},
    {"concat", "Joins lists or tuples end to end into one sequence.",
     {{"seqs", "The lists or tuples to join, in order."}}},
    {"contains", "Returns whether a list, tuple or set has an element equal to a value.",
     {{"list", "The collection to search."}, {"value", "The value to look for."}}},
    {"convert",
     "Converts a value to a type constraint and fills in the defaults of its optional object "
     "attributes.",
     {{"value", "The value to convert."},
      {"type", "A type constraint expression, such as list(string) or object({a=optional(number, 1)})."}}},
    {"csvdecode",
     "Parses CSV text whose first line names the columns into a list of objects, one per "
     "further line.",
     {{"str", "The CSV text."}}},
    {"dirname", "Returns a filesystem path without its last element.",
     {{"path", "The path to remove the last element of."}}},
    {"distinct", "Removes the repeated elements of a list, keeping the first of each.",
     {{"list", "The list to remove repeated elements from."}}},
    {"element", "Returns the element of a list or tuple at an index, wrapping around past the end.",
     {{"list", "The list or tuple to read."},
      {"index", "The position of the element; past the end it wraps around to the start."}}},
    {"endswith", "Returns whether a string ends with a given suffix.",
     {{"str", "The string to test."}, {"suffix", "The suffix to look for."}}},
    {"ephemeralasnull",
     "Replaces every ephemeral part of a value by a null of the same type, leaving the rest "
     "as it is.",
     {{"value", "The value to clear of ephemeral parts."}}},
    {"file", "Reads a file as UTF-8 text.",
     {{"path", "The path of the file, relative to the base directory."}}},
    {"filebase64", "Reads a file and returns its bytes in Base64.",
     {{"path", "The path of the file, relative to the base directory."}}},
    {"filebase64sha256", "Computes the SHA-256 digest of a file's bytes and encodes it in Base64.",
     {{"path", "The path of the file, relative to the base directory."}}},
    {"filebase64sha512", "Computes the SHA-512 digest of a file's bytes and encodes it in Base64.",
     {{"path", "The path of the file, relative to the base directory."}}},
    {"fileexists", "Returns whether a file exists at a path.",
     {{"path", "The path to test, relative to the base directory."}}},
    {"filemd5", "Computes the MD5 digest of a file's bytes, in hexadecimal.",
     {{"path", "The path of the file, relative to the base directory."}}},
    {"fileset",
     "Lists the files under a directory whose paths match a glob pattern, relative to that "
     "directory.",
     {{"path", "The directory to search, relative to the base directory."},
      {"pattern", "The glob pattern the paths must match, with * ? [...] {...} and **."}}},
    {"filesha1", "Computes the SHA-1 digest of a file's bytes, in hexadecimal.",
     {{"path", "The path of the file, relative to the base directory."}}},
    {"filesha256", "Computes the SHA-256 digest of a file's bytes, in hexadecimal.",
     {{"path", "The path of the file, relative to the base directory."}}},
    {"filesha512", "Computes the SHA-512 digest of a file's bytes, in hexadecimal.",
     {{"path", "The path of the file, relative to the base directory."}}},
    {"flatten", "Replaces the nested lists and tuples of a list by their elements, at every depth.",
     {{"list", "The list or tuple to flatten."}}},
    {"floor", "Rounds a number down to the nearest whole number.",
     {{"num", "The number to round down."}}},
    {"format", "Builds a string from a format specification and values, in the manner of printf.",
     {{"format", "The format specification, with verbs such as %s, %d and %.2f."},
      {"args", "The values the verbs format, in order."}}},
    {"formatdate", "Writes an RFC 3339 timestamp in another format.",
     {{"format", "The format specification, such as YYYY-MM-DD or hh:mm:ss."},
      {"time", "The timestamp to write, in RFC 3339 syntax."}}},
    {"formatlist",
     "Formats the elements of list arguments in step, one string per position, giving a "
     "list of strings.",
     {{"format", "The format specification, with verbs such as %s, %d and %.2f."},
      {"args", "Single values, or lists of one length that are iterated together."}}},
    {"indent", "Puts spaces at the start of every line of a string but the first.",
     {{"spaces", "The number of spaces to put."}, {"str", "The string to indent."}}},
    {"index", "Returns the position of the first element of a list or tuple equal to a value.",
     {{"list", "The list or tuple to search."}, {"value", "The value to look for."}}},
    {"issensitive", "Returns whether a value is marked as sensitive.",
     {{"value", "The value to test."}}},
    {"join", "Concatenates the strings of one or more lists, with a separator between each two.",
     {{"separator", "The string put between the elements."},
      {"lists", "The lists of strings to join."}}},
    {"jsondecode", "Parses JSON text into the value it represents.",
     {{"str", "The JSON text to parse."}}},
    {"jsonencode", "Writes a value as compact JSON text.",
     {{"val", "The value to write."}}},
    {"keys",
     "Returns the keys of a map, or the attribute names of an object, in lexical order.",
     {{"inputMap", "The map or object to take the keys of."}}},
    {"length",
     "Returns the number of elements of a collection or structure, or of characters "
     "(grapheme clusters) of a string.",
     {{"value", "The list, tuple, set, map, object or string to measure."}}},
    {"list",
     "A function removed in Terraform 0.12, which brought the bracketed list syntax; every "
     "call is an error.",
     {{"vals", "Any values; the call fails whatever they are."}}},
    {"log", "Returns the logarithm of a number in a given base.",
     {{"num", "The number to take the logarithm of."}, {"base", "The base of the logarithm."}}},
    {"lookup",
     "Returns the element of a map, or the attribute of an object, with a given key, or a "
     "default when there is none.",
     {{"inputMap", "The map or object to look in."},
      {"key", "The key to look up."},
      {"default", "The value when the key is absent; without it, an absent key is an error."}}},
    {"lower", "Converts the letters of a string to lower case.",
     {{"str", "The string to convert."}}},
    {"map",
     "A function removed in Terraform 0.12, which brought the braced object syntax; every "
     "call is an error.",
     {{"vals", "Any values; the call fails whatever they are."}}},
    {"matchkeys",
     "Keeps the elements of a list whose counterparts, at the same positions in a list of "
     "keys, are in a search set.",
     {{"values", "The list to take elements from."},
      {"keys", "A list as long as values, one key per element."},
      {"searchset", "The keys whose elements are kept."}}},
    {"max", "Returns the greatest of one or more numbers.",
     {{"numbers", "The numbers to compare."}}},
    {"md5", "Computes the MD5 digest of the UTF-8 bytes of a string, in hexadecimal.",
     {{"str", "The string to hash."}}},
    {"merge",
     "Combines maps or objects into one; where a key occurs more than once, the last "
     "argument's element wins.",
     {{"maps", "The maps or objects to combine, in order."}}},
    {"min", "Returns the smallest of one or more numbers.",
     {{"numbers", "The numbers to compare."}}},
    {"nonsensitive", "Removes the sensitive mark of a value, revealing it.",
     {{"value", "The value to reveal."}}},
    {"one",
     "Returns the single element of a list, tuple or set, or null when it has none; more "
     "elements are an error.",
     {{"list", "The collection of at most one element."}}},
    {"parseint", "Parses a string as an integer written in a given base.",
     {{"number", "The digits to parse, with an optional sign."},
      {"base", "The base of the digits, from 2 to 62."}}},
    {"pathexpand", "Replaces a leading ~ of a filesystem path by the home directory.",
     {{"path", "The path to expand."}}},
    {"plantimestamp",
     "Returns the time at which the plan started, as an RFC 3339 timestamp; unknown until "
     "there is a plan.",
     {{NULL, NULL}}},
    {"pow", "Raises a number to a power.",
     {{"num", "The number to raise."}, {"power", "The exponent."}}},
    {"range", "Generates a list of numbers from a start, a limit and a step.",
     {{"params", "One to three numbers: the limit; the start and limit; or the start, limit and step."}}},
    {"regex",
     "Matches a regular expression against a string and returns the first match: the "
     "matched text, or its capture groups as a list or object.",
     {{"pattern", "The regular expression, in the syntax of Go's regexp package."},
      {"string", "The string to search."}}},
    {"regexall",
     "Matches a regular expression against a string and returns every match, not "
     "overlapping, in a list.",
     {{"pattern", "The regular expression, in the syntax of Go's regexp package."},
      {"string", "The string to search."}}},
    {"replace",
     "Replaces every occurrence of a substring in a string, or every match of a regular "
     "expression written between slashes.",
     {{"str", "The string to search."},
      {"substr", "The text to replace, or a regular expression between slashes."},
      {"replace", "The replacement; for a regular expression it may refer to groups as $1 or ${name}."}}},
    {"reverse", "Returns a list or tuple with its elements in the opposite order.",
     {{"list", "The list or tuple to reverse."}}},
    {"rsadecrypt",
     "Decrypts Base64-encoded ciphertext with an RSA private key, with PKCS #1 v1.5 padding.",
     {{"ciphertext", "The encrypted data, in Base64."},
      {"privatekey", "The RSA private key, PEM-encoded."}}},
    {"sensitive", "Marks a value as sensitive, so that it is hidden where values are shown.",
     {{"value", "The value to mark."}}},
    {"setintersection", "Returns the set of the elements that all the given sets have.",
     {{"first_set", "The first set."}, {"other_sets", "The other sets."}}},
    {"setproduct",
     "Returns every combination of one element from each argument, their Cartesian product.",
     {{"sets", "The sets, lists or tuples to combine; a list results when none is a set."}}},
    {"setsubtract", "Returns the elements of a set that are not in a second set.",
     {{"a", "The set to take elements from."}, {"b", "The set of the elements to leave out."}}},
    {"setunion", "Returns the set of the elements that any of the given sets has.",
     {{"first_set", "The first set."}, {"other_sets", "The other sets."}}},
    {"sha1", "Computes the SHA-1 digest of the UTF-8 bytes of a string, in hexadecimal.",
     {{"str", "The string to hash."}}},
    {"sha256", "Computes the SHA-256 digest of the UTF-8 bytes of a string, in hexadecimal.",
     {{"str", "The string to hash."}}},
    {"sha512", "Computes the SHA-512 digest of the UTF-8 bytes of a string, in hexadecimal.",
     {{"str", "The string to hash."}}},
    {"signum", "Returns -1, 0 or 1 according to the sign of a number.",
     {{"num", "The number whose sign is wanted."}}},
    {"slice",
     "Returns the elements of a list or tuple from a start index up to, but not including, "
     "an end index.",
     {{"list", "The list or tuple to take elements from."},
      {"start_index", "The index of the first element to take."},
      {"end_index", "The index just after the last element to take."}}},
    {"sort", "Sorts a list of strings in lexical order.",
     {{"list", "The strings to sort."}}},
    {"split", "Divides a string at every occurrence of a separator into a list of strings.",
     {{"separator", "The text to divide at."}, {"str", "The string to divide."}}},
    {"startswith", "Returns whether a string starts with a given prefix.",
     {{"str", "The string to test."}, {"prefix", "The prefix to look for."}}},
    {"strcontains", "Returns whether a string contains a given substring.",
     {{"str", "The string to search."}, {"substr", "The substring to look for."}}},
    {"strrev", "Reverses the characters (grapheme clusters) of a string.",
     {{"str", "The string to reverse."}}},
    {"substr",
     "Returns the part of a string at an offset and of a length, counted in characters "
     "(grapheme clusters).",
     {{"str", "The string to take a part of."},
      {"offset", "Where the part starts; a negative offset counts from the end."},
      {"length", "How many characters to take; -1 takes all the rest."}}},
    {"sum", "Adds up the numbers of a list, tuple or set.",
     {{"list", "The numbers to add, at least one."}}},
    {"templatefile", "Reads a file and renders it as a template with the given variables.",
     {{"path", "The path of the template file, relative to the base directory."},
      {"vars", "A map or object of the variables the template may use."}}},
    {"templatestring",
     "Renders a string, given by a reference to it, as a template with the given variables.",
     {{"template", "A reference to the string that holds the template."},
      {"vars", "A map or object of the variables the template may use."}}},
    {"textdecodebase64",
     "Decodes Base64 text and reads the bytes in a named character encoding, giving a string.",
     {{"source", "The Base64 text to decode."},
      {"encoding", "The name of the bytes' character encoding, such as UTF-16LE."}}},
    {"textencodebase64",
     "Encodes a string in a named character encoding and returns the bytes in Base64.",
     {{"string", "The string to encode."},
      {"encoding", "The name of the character encoding to use, such as UTF-16LE."}}},
    {"timeadd", "Adds a duration to an RFC 3339 timestamp.",
     {{"timestamp", "The timestamp, in RFC 3339 syntax."},
      {"duration", "The duration to add, such as 1h30m or -10s."}}},
    {"timecmp",
     "Compares two RFC 3339 timestamps: -1 when the first is earlier, 0 for the same "
     "instant, 1 when it is later.",
     {{"timestamp_a", "The first timestamp."}, {"timestamp_b", "The second timestamp."}}},
    {"timestamp", "Returns the current time as an RFC 3339 timestamp in UTC.", {{NULL, NULL}}},
    {"title", "Converts the first letter of each word of a string to upper case.",
     {{"str", "The string to convert."}}},
    {"tobool",
     "Converts a value to a boolean; only booleans and the strings \"true\" and \"false\" "
     "convert.",
     {{"v", "The value to convert."}}},
    {"tolist", "Converts a value to a list, its elements to one type.",
     {{"v", "The value to convert."}}},
    {"tomap", "Converts a value to a map, its elements to one type.",
     {{"v", "The value to convert."}}},
    {"tonumber", "Converts a value to a number.",
     {{"v", "The value to convert."}}},
    {"toset", "Converts a value to a set, its elements to one type, dropping repeated ones.",
     {{"v", "The value to convert."}}},
    {"tostring", "Converts a value to a string.",
     {{"v", "The value to convert."}}},
    {"transpose",
     "Swaps the keys and values of a map of lists of strings: each string becomes a key, "
     "listing the keys it was found under.",
     {{"values", "The map of lists of strings to transpose."}}},
    {"trim", "Removes the given characters from the start and the end of a string.",
     {{"str", "The string to trim."},
      {"cutset", "The characters to remove, each one on its own."}}},
    {"trimprefix", "Removes a prefix from the start of a string, once, when it is there.",
     {{"str", "The string to trim."}, {"prefix", "The prefix to remove."}}},
    {"trimspace", "Removes the white space at the start and the end of a string.",
     {{"str", "The string to trim."}}},
    {"trimsuffix", "Removes a suffix from the end of a string, once, when it is there.",
     {{"str", "The string to trim."}, {"suffix", "The suffix to remove."}}},
    {"try",
     "Evaluates its argument expressions in turn and returns the value of the first one "
     "that has no errors.",
     {{"expressions", "The expressions to evaluate, in order."}}},
    {"type", "Returns the type of a value; for the console and tfexpr eval only.",
     {{"value", "The value whose type is wanted."}}},
    {"upper", "Converts the letters of a string to upper case.",
     {{"str", "The string to convert."}}},
    {"urldecode", "Decodes a URL query component: its %XX escapes, and + as a space.",
     {{"str", "The text to decode."}}},
    {"urlencode", "Escapes a string for a URL query: %XX escapes, and + for a space.",
     {{"str", "The string to escape."}}},
    {"uuid", "Generates a random version 4 UUID, a new one at each call.", {{NULL, NULL}}},
    {"uuidv5", "Computes the name-based version 5 UUID of a name within a namespace.",
     {{"namespace", "The namespace: dns, url, oid, x500, or a UUID."},
      {"name", "The name to identify within the namespace."}}},
    {"values",
     "Returns the values of a map, or the attribute values of an object, in the lexical "
     "order of their keys.",
     {{"mapping", "The map or object to take the values of."}}},
    {"yamldecode", "Parses YAML text into the value it represents.",
     {{"src", "The YAML text to parse."}}},
    {"yamlencode", "Writes a value as YAML text in block style.",
     {{"value", "The value to write."}}},
    {"zipmap", "Builds a map from a list of keys and a list or tuple of values as long.",
     {{"keys", "The keys of the map."},
      {"values", "The values of the map, one per key, in the same order."}}},
};

const tfx_fn_meta *tfx_fn_meta_at(size_t i)
{
    return i < TFX_COUNTOF(descriptions) ? &descriptions[i] : NULL;
}

const tfx_fn_meta *tfx_fn_meta_find(const char *name)
{
    size_t lo = 0, hi = TFX_COUNTOF(descriptions);

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(descriptions[mid].name, name);

        if (c == 0)
            return &descriptions[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

int tfx_fn_table_omits(const char *name)
{
    return strcmp(name, "list") == 0 || strcmp(name, "map") == 0 || strcmp(name, "type") == 0;
}

/* ---- The table ---- */

/* The functions whose parameters take expressions or type constraints:
 * their types cannot be written as cty types, so Terraform writes these
 * signatures by hand (jsonfunction's marshalTry, marshalCan,
 * marshalTemplatestring, marshalConvert), with the registered names and
 * null flags but these types; convert's type parameter is never said
 * to be nullable. */
typedef struct {
    const char *name;
    const char *ret;        /* cty JSON types */
    const char *params[2];  /* the fixed parameters', then the variadic one's */
    bool never_nullable[2];
} fixed_signature;

static const fixed_signature fixed_signatures[] = {
    {"can", "\"bool\"", {"\"dynamic\"", NULL}, {false, false}},
    {"convert", "\"dynamic\"", {"\"dynamic\"", "\"dynamic\""}, {false, true}},
    {"templatestring", "\"string\"", {"\"string\"", "\"dynamic\""}, {false, false}},
    {"try", "\"dynamic\"", {"\"dynamic\"", NULL}, {false, false}},
};

/* One parameter or a function as the table shows it, in the arena. */
typedef struct {
    const char *name;
    const char *text;        /* the description, or NULL */
    const char *type_json;   /* cty JSON type syntax */
    const char *type_text;   /* type-constraint notation */
    bool nullable;
} param_row;

typedef struct {
    const char *name;
    const char *text;
    const char *ret_json;
    const char *ret_text;
    param_row *params;
    size_t nparams;
    param_row *var;          /* NULL: not variadic */
} function_row;

typedef struct {
    bool json;               /* in: which form */
    bool opentofu;           /* in: OpenTofu's table [flavor.table] */
    bool pn;                 /* in: profile PN's table [call.pn.core], whose
                                OpenTofu table has the assume* functions
                                [fn.assume.profile] */
    function_row *rows;
    size_t n;
    const char *text;        /* out: the text form, in the arena */
    const char *error;       /* out: why there is no table, in the arena */
} table_job;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int compare_rows(const void *a, const void *b)
{
    return strcmp(((const function_row *)a)->name, ((const function_row *)b)->name);
}

static const fixed_signature *fixed_signature_of(const char *name)
{
    size_t i;

    for (i = 0; i < TFX_COUNTOF(fixed_signatures); i++)
        if (strcmp(fixed_signatures[i].name, name) == 0)
            return &fixed_signatures[i];
    return NULL;
}

/* A type of fixed_signatures (dynamic if it were not a type). */
static const tfx_type *fixed_type(tfx_ctx *ctx, const char *json)
{
    const char *error = NULL;
    const tfx_type *t = tfx_json_decode_type(ctx, json, strlen(json), &error);

    return t != NULL ? t : &tfx_type_dynamic;
}

/* The description of parameter i (the variadic one is after the fixed
 * ones), or NULL. */
static const char *param_text(const tfx_fn_meta *meta, size_t i)
{
    return meta != NULL && i < TFX_FN_META_PARAMS ? meta->params[i].text : NULL;
}

/* A parameter's type as both notations; `json` (a cty JSON type) when
 * given, else the registered type. */
static void set_param_type(tfx_ctx *ctx, param_row *row, const tfx_type *t, const char *json)
{
    if (json != NULL)
        t = fixed_type(ctx, json);
    row->type_json = tfx_json_encode_type(ctx, t, NULL);
    row->type_text = tfx_type_string(ctx, t);
}

/* Fills *row from the registered function `name`; false with
 * job->error set when its return type cannot be worked out. */
static bool make_row(tfx_ctx *ctx, const char *name, function_row *row, table_job *job)
{
    /* OpenTofu's table under PN holds the others: it finds every listed
     * name */
    const tfx_function *fn = tfx_func_builtin_opentofu_pn(name, strlen(name));
    const tfx_fn_meta *meta = tfx_fn_meta_find(name);
    const fixed_signature *fixed = fixed_signature_of(name);
    size_t nargs = fn->nparams + (fn->varparam != NULL ? 1 : 0);
    const tfx_type *ret;
    size_t i;

    row->name = name;
    row->text = meta != NULL ? meta->text : NULL;
    row->nparams = fn->nparams;
    row->params = tfx_ctx_alloc_array(ctx, nargs > 0 ? nargs : 1, sizeof(param_row));
    row->var = fn->varparam != NULL ? &row->params[fn->nparams] : NULL;
    for (i = 0; i < nargs; i++) {
        const tfx_param *p = i < fn->nparams ? &fn->params[i] : fn->varparam;
        const char *json = fixed != NULL && i < 2 ? fixed->params[i] : NULL;

        row->params[i].name = p->name;
        row->params[i].text = param_text(meta, i);
        row->params[i].nullable = p->allow_null && !(fixed != NULL && i < 2 && fixed->never_nullable[i]);
        set_param_type(ctx, &row->params[i], p->type != NULL ? p->type : &tfx_type_dynamic,
                       fixed != NULL ? (json != NULL ? json : "\"dynamic\"") : NULL);
    }

    if (fixed != NULL) {
        ret = fixed_type(ctx, fixed->ret);
    } else {
        /* The return type for unknown arguments of the parameters' types,
         * as jsonfunction's getReturnType asks cty for it. */
        const tfx_value **args = tfx_ctx_alloc_array(ctx, nargs > 0 ? nargs : 1,
                                                       sizeof(const tfx_value *));
        tfx_func_error err;

        for (i = 0; i < nargs; i++) {
            const tfx_param *p = i < fn->nparams ? &fn->params[i] : fn->varparam;

            args[i] = tfx_value_unknown(ctx, p->type != NULL ? p->type : &tfx_type_dynamic);
        }
        ret = tfx_func_return_type(ctx, fn, args, nargs, &err);
        if (ret == NULL) {
            job->error = tfx_ctx_printf(ctx, "%s: its return type cannot be worked out: %s", name,
                                        err.message != NULL ? err.message : "no reason given");
            return false;
        }
    }
    row->ret_json = tfx_json_encode_type(ctx, ret, NULL);
    row->ret_text = tfx_type_string(ctx, ret);
    return true;
}

static const char *table_text(tfx_ctx *ctx, const table_job *job);

/* Makes the rows of every registered function that the table shows,
 * sorted by name.  In profile PN each function is listed a second time
 * as core::NAME, with the same signature, as `terraform metadata
 * functions -json` lists the core:: aliases of its table [call.pn.core];
 * like Terraform's command, it lists no provider function (the
 * provider::terraform:: functions belong to a provider's schema). */
static void make_rows(tfx_ctx *ctx, void *arg)
{
    table_job *job = arg;
    const char **names;
    size_t count = 0, n = 0, i;
    size_t rows;
    tfx_func_name_fn name_at;

    tfx_func_table_for(job->opentofu, job->pn, NULL, &name_at);

    while (name_at(count) != NULL)
        count++;
    names = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1, sizeof(*names));
    for (i = 0; i < count; i++) {
        const char *name = name_at(i);

        if (!tfx_fn_table_omits(name))
            names[n++] = name;
    }
    qsort((void *)names, n, sizeof(*names), compare_names);
    rows = job->pn ? 2 * n : n;
    job->rows = tfx_ctx_alloc_array(ctx, rows > 0 ? rows : 1, sizeof(function_row));
    for (i = 0; i < n; i++)
        if (!make_row(ctx, names[i], &job->rows[i], job))
            return;
    if (job->pn) {
        for (i = 0; i < n; i++) {
            job->rows[n + i] = job->rows[i];
            job->rows[n + i].name = tfx_ctx_printf(ctx, "core::%s", names[i]);
        }
        qsort((void *)job->rows, rows, sizeof(function_row), compare_rows);
    }
    job->n = rows;
    if (!job->json)
        job->text = table_text(ctx, job);
}

/* The text form: one line per function; "f(a T, b U, c V...) R". */
static const char *table_text(tfx_ctx *ctx, const table_job *job)
{
    tfx_textbuf b;
    size_t i, j;

    tfx_textbuf_init(&b, ctx);
    for (i = 0; i < job->n; i++) {
        const function_row *row = &job->rows[i];

        tfx_textbuf_printf(&b, "%s(", row->name);
        for (j = 0; j < row->nparams; j++)
            tfx_textbuf_printf(&b, "%s%s %s", j > 0 ? ", " : "", row->params[j].name,
                               row->params[j].type_text);
        if (row->var != NULL)
            tfx_textbuf_printf(&b, "%s%s %s...", row->nparams > 0 ? ", " : "", row->var->name,
                               row->var->type_text);
        tfx_textbuf_printf(&b, ") %s\n", row->ret_text);
    }
    return tfx_textbuf_text(&b);
}

/* {"name","description","is_nullable","type"} of a parameter, or NULL
 * when memory runs out. */
static json_t *param_json(const param_row *p)
{
    json_t *o = json_object();
    json_t *type = json_loads(p->type_json, JSON_DECODE_ANY, NULL);

    if (o == NULL || type == NULL) {
        json_decref(o);
        json_decref(type);
        return NULL;
    }
    /* The _new setters take the value even when they fail. */
    if (json_object_set_new(o, "name", json_string(p->name)) != 0
        || (p->text != NULL && json_object_set_new(o, "description", json_string(p->text)) != 0)
        || (p->nullable && json_object_set_new(o, "is_nullable", json_true()) != 0)) {
        json_decref(o);
        json_decref(type);
        return NULL;
    }
    if (json_object_set_new(o, "type", type) != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* A function's signature, members in Terraform's order; NULL when memory
 * runs out. */
static json_t *signature_json(const function_row *row)
{
    json_t *o = json_object();
    json_t *ret = json_loads(row->ret_json, JSON_DECODE_ANY, NULL);

    if (o == NULL || ret == NULL
        || (row->text != NULL && json_object_set_new(o, "description", json_string(row->text)) != 0)) {
        json_decref(o);
        json_decref(ret);
        return NULL;
    }
    if (json_object_set_new(o, "return_type", ret) != 0) {
        json_decref(o);
        return NULL;
    }
    if (row->nparams > 0) {
        json_t *params = json_array();

        if (params == NULL || json_object_set_new(o, "parameters", params) != 0) {
            json_decref(o);
            return NULL;
        }
        for (size_t i = 0; i < row->nparams; i++)
            if (json_array_append_new(params, param_json(&row->params[i])) != 0) {
                json_decref(o);
                return NULL;
            }
    }
    if (row->var != NULL && json_object_set_new(o, "variadic_parameter", param_json(row->var)) != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The JSON form, one line. */
static char *table_json(const table_job *job)
{
    json_t *root = json_object();
    json_t *sigs = json_object();
    char *out = NULL;
    size_t i;

    if (root == NULL || sigs == NULL || json_object_set_new(root, "format_version", json_string("1.0")) != 0
        || json_object_set_new(root, "function_signatures", sigs) != 0) {
        json_decref(root);
        return NULL;
    }
    for (i = 0; i < job->n; i++)
        if (json_object_set_new(sigs, job->rows[i].name, signature_json(&job->rows[i])) != 0) {
            json_decref(root);
            return NULL;
        }
    out = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    return out;
}

/* A copy of s in malloc'd memory, or NULL. */
static char *copy_out(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n + 1);

    if (out != NULL)
        memcpy(out, s, n + 1);
    return out;
}

char *tfx_fn_table(int json, char **error)
{
    return tfx_fn_table_flavor(json, 0, error);
}

char *tfx_fn_table_flavor(int json, int opentofu, char **error)
{
    return tfx_fn_table_profile(json, opentofu, 0, error);
}

char *tfx_fn_table_profile(int json, int opentofu, int pn, char **error)
{
    tfx_ctx ctx;
    table_job job;
    char *out = NULL;

    *error = NULL;
    if (!tfx_ctx_init(&ctx, NULL))
        return NULL;
    memset(&job, 0, sizeof(job));
    job.json = json != 0;
    job.opentofu = opentofu != 0;
    job.pn = pn != 0;
    if (tfx_ctx_try(&ctx, make_rows, &job) && job.error == NULL)
        out = json ? table_json(&job) : copy_out(job.text);
    else if (job.error != NULL)
        *error = copy_out(job.error);
    tfx_ctx_free(&ctx);
    return out;
}
