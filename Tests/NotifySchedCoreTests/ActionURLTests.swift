import NotifySchedCore
import Testing

@Suite struct ActionURLTests {
    private func refusal(_ text: String, policy: URLPolicy = URLPolicy()) -> String? {
        do {
            _ = try ActionURL(text, policy: policy)
            return nil
        } catch {
            #expect(error.code == .disallowedURL)
            return error.message
        }
    }

    @Test(arguments: [
        "https://example.org/a", "http://example.org", "https://example.org:8443/a?b=c#d", "https://[::1]:8080/",
        "https://127.0.0.1/", "https://bücher.example/straße", "https://example.org:/", "mailto:team@example.org",
        "mailto:a@example.org,b@example.org?subject=Hi&body=Read%20this&cc=c@example.org&BCC=d@example.org",
        "zbimdb://content/a",
    ])
    func urlsAPersonCanReadAreAccepted(_ text: String) {
        #expect(refusal(text, policy: URLPolicy(extraSchemes: ["zbimdb"])) == nil)
    }

    @Test func httpNamesAHost() {
        #expect(refusal("https:///etc/passwd") == #""https:///etc/passwd" has no host"#)
        #expect(refusal("http://") == #""http://" has no host"#)
        #expect(refusal("https:example.org") == #""https:example.org" has no host"#)
        #expect(refusal("https://:443/") == #""https://:443/" has no host"#)
    }

    @Test func aUserNameBeforeTheHostIsRefused() {
        #expect(
            refusal("https://bank.example@evil.example/")
                == #""https://bank.example@evil.example/" has a user name before its host, which hides where it leads"#)
        #expect(refusal("https://user:password@example.org/") != nil)
        #expect(refusal("https://example.org/@user") == nil, "an @ in the path is the path's")
    }

    @Test func aPortOutsideItsRangeIsRefused() {
        #expect(refusal("https://example.org:0/") == #""https://example.org:0/" has a port outside 1 to 65535"#)
        #expect(refusal("https://example.org:65536/") != nil)
        #expect(refusal("https://example.org:8x/") != nil)
    }

    /// Found by the control fuzz target: a digit with a combining mark is one character that
    /// sorts between "0" and "9", and passed for a digit until the number was read.
    @Test func aPortDigitWithACombiningMarkIsRefusedNotACrash() {
        #expect(
            refusal("https://example.org:000\u{310}/")
                == "\"https://example.org:000\u{310}/\" has a port outside 1 to 65535")
        #expect(refusal("https://example.org:8\u{301}0/") != nil)
    }

    @Test func mailtoSetsOnlyTheCommonFields() {
        #expect(
            refusal("mailto:a@example.org?attach=/etc/passwd")
                == #""mailto:a@example.org?attach=/etc/passwd" sets the mail field "attach"; only to, cc, bcc, subject and body may be set"#
        )
        #expect(refusal("mailto:a@example.org?%61ttach=/etc/passwd") != nil, "an escaped name is the same name")
        #expect(refusal("mailto:a@example.org?subject=x&X-Header=y") != nil)
    }

    @Test(arguments: [
        ("https://example.org/\u{202E}fdp.exe", "202E"), ("https://exa\u{00A0}mple.org/", "00A0"),
        ("https://example.org/\u{200B}", "200B"), ("mailto:a@example.org?subject=\u{2066}x", "2066"),
        ("https://example.org/\u{FEFF}", "FEFF"), ("https://example.org/\u{00AD}", "00AD"),
    ])
    func invisibleAndDirectionChangingCharactersAreRefused(_ text: String, _ code: String) {
        #expect(refusal(text)?.hasSuffix("contains an invisible or direction-changing character (U+\(code))") == true)
    }

    @Test func aLongURLIsEchoedCutShort() {
        let long = "https://example.org/" + String(repeating: "a", count: 10_000) + " x"
        let message = refusal(long) ?? ""
        #expect(message.count < 200)
        #expect(message.hasSuffix("(10022 characters) contains spaces or control characters"))
    }
}
