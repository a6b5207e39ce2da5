import Foundation
import Testing
@testable import ReactiveSources

/// How paging strategies put page parameters into a request URL: appended as text when
/// nothing needs encoding or replacing, through `URLComponents` otherwise, with the same
/// parameters either way.
@Suite("Page request query parameters")
struct PageRequestTests {
    func settingItems(_ pairs: [(String, String)], on url: String) -> URL {
        var request = PageRequest(url: URL(string: url)!)
        request.setQueryItems(pairs.map { (name: $0.0, value: $0.1) })
        return request.url
    }

    func queryItems(_ url: URL) -> [URLQueryItem] {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
    }

    @Test func plainParametersAreAppendedAfterTheExistingQuery() {
        #expect(settingItems([("page", "2")], on: "http://h.test/items").absoluteString == "http://h.test/items?page=2")
        #expect(settingItems([("page", "2"), ("page_size", "50")], on: "http://h.test/items?total=5000").absoluteString
            == "http://h.test/items?total=5000&page=2&page_size=50")
        #expect(settingItems([("page", "2")], on: "http://h.test/items?").absoluteString == "http://h.test/items?page=2")
        #expect(settingItems([("page", "2")], on: "http://h.test/items?a=1&").absoluteString == "http://h.test/items?a=1&page=2")
        #expect(settingItems([("page", "2")], on: "http://h.test").absoluteString == "http://h.test?page=2")
    }

    @Test func theFastPathGivesTheParametersURLComponentsWould() {
        let urls = ["http://h.test/items", "http://h.test/items?total=5000", "http://h.test/a/b?q=x%20y&flag", "https://h.test:8080/v1/items?sort=-id"]
        let pairs = [("page", "7"), ("page_size", "50"), ("cursor", "abc.DEF-_~")]
        for url in urls {
            var components = URLComponents(string: url)!
            components.queryItems = (components.queryItems ?? []) + pairs.map { URLQueryItem(name: $0.0, value: $0.1) }
            let result = settingItems(pairs, on: url)
            #expect(queryItems(result) == components.queryItems, "\(url)")
            #expect(result.host == components.host && result.path == components.path && result.port == components.port, "\(url)")
        }
    }

    @Test func aParameterAlreadyInTheQueryIsReplaced() {
        let url = settingItems([("page", "2")], on: "http://h.test/items?page=1&x=y")
        #expect(queryItems(url) == [URLQueryItem(name: "x", value: "y"), URLQueryItem(name: "page", value: "2")])
        let encodedName = settingItems([("page", "3")], on: "http://h.test/items?p%61ge=1")
        #expect(queryItems(encodedName) == [URLQueryItem(name: "page", value: "3")])
        let twice = settingItems([("page", "1"), ("page", "4")], on: "http://h.test/items")
        #expect(queryItems(twice) == [URLQueryItem(name: "page", value: "4")])
    }

    @Test func valuesThatNeedEncodingRoundTrip() {
        let url = settingItems([("q", "a b&c=d+é"), ("page", "2")], on: "http://h.test/search?lang=en")
        #expect(queryItems(url) == [
            URLQueryItem(name: "lang", value: "en"), URLQueryItem(name: "q", value: "a b&c=d+é"), URLQueryItem(name: "page", value: "2"),
        ])
    }

    /// `+` means a space to many servers: a new value's `+` is sent as `%2B`, and an existing
    /// `%2B` is not decoded into a bare `+` when the query is rebuilt.
    @Test func plusSignsKeepTheirMeaning() {
        let url = settingItems([("cursor", "ab+c/d="), ("page", "2")], on: "http://h.test/items?q=a%2Bb&page=1")
        #expect(url.query == "q=a%2Bb&cursor=ab%2Bc%2Fd%3D&page=2")
        #expect(queryItems(url) == [
            URLQueryItem(name: "q", value: "a+b"), URLQueryItem(name: "cursor", value: "ab+c/d="), URLQueryItem(name: "page", value: "2"),
        ])
    }

    @Test func aFragmentStaysAfterTheQuery() {
        let url = settingItems([("page", "2")], on: "http://h.test/items?a=1#top")
        #expect(queryItems(url) == [URLQueryItem(name: "a", value: "1"), URLQueryItem(name: "page", value: "2")])
        #expect(url.fragment == "top")
    }

    @Test func theFastPathDeclinesWhatItCannotAppendAsIs() {
        let base = URL(string: "http://h.test/items?page=1")!
        #expect(PageRequest.appendingPlainQueryItems([("page", "2")], to: base) == nil)
        #expect(PageRequest.appendingPlainQueryItems([("q", "a b")], to: base) == nil)
        #expect(PageRequest.appendingPlainQueryItems([("", "x")], to: base) == nil)
        #expect(PageRequest.appendingPlainQueryItems([("n", "1"), ("n", "2")], to: base) == nil)
        #expect(PageRequest.appendingPlainQueryItems([("n", "1")], to: URL(string: "http://h.test/items#f")!) == nil)
        #expect(PageRequest.appendingPlainQueryItems([("n", "1")], to: base)?.absoluteString == "http://h.test/items?page=1&n=1")
    }
}
