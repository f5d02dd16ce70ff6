import FuzzSupport
import ScandCore
@testable import ScandPayload

// A GS1 Digital Link URI from a code (issue 48: `…/10/A%ZZ` was typed gs1 with the batch `A%ZZ`). What the
// parser accepts has only whole percent escapes, a resolver that begins the link, and elements whose
// element string (what the wedge types) reads back as the same elements. DigitalLinkParser, PayloadBytes and
// GS1Parser are internal to ScandPayload: reached with @testable (a debug build has testability).

func seeds() -> [Fuzz.Seed] {
    let links = [
        "https://id.gs1.org/01/09506000134352/10/ABC?17=270101",
        "https://brand.example.com:8443/products/en/01/09521234543213/22/2A/10/LOT7/21/99?3103=000500&15=261231",
        "https://id.gs1.org/01/09506000134352/10/AB%2FC%2d1%2D%41?21=X%25Y",
        "https://id.gs1.org/414/9520123456788/254/32a%2Fb", "http://example.com/a/b/c/01/09506000134352#frag",
        "https://id.gs1.org/01/09506000134352/10/A%ZZ"
    ]
    return links.enumerated().map { (name: "link-\($0.offset)", bytes: Array($0.element.utf8)) }
}

func test(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    guard let g = Payload.GS1(digitalLink: text) else { return }
    let link = PayloadBytes.trimmed(Array(text.utf8)[...])
    Fuzz.require(PayloadBytes.hasValidPercentEscapes(link), "\(text.debugDescription) accepted with a broken percent escape")
    Fuzz.require(!g.elements.isEmpty, "\(text.debugDescription) accepted without elements")
    if let resolver = g.resolver {
        Fuzz.require(PayloadBytes.string(link).hasPrefix(resolver), "resolver \(resolver.debugDescription) does not begin the link")
    }
    let typed = GS1Parser.parseRaw(Array(g.elementString.utf8)[...])?.map { [$0.ai, $0.value] }
    Fuzz.require(typed == g.elements.map { [$0.ai, $0.value] }, "element string \(g.elementString.debugDescription) does not read back")
}

Fuzz.run(seeds: seeds, test: test)
