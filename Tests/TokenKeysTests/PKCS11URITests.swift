import Testing
import TokenKeys

/// RFC 7512 URIs: the §3.3 examples parse to the attributes they spell, and what the layer refuses is named.
@Suite struct PKCS11URITests {
    @Test func rfcExampleWithEveryTokenAttribute() throws {
        let uri = try PKCS11URI(
            "pkcs11:token=The%20Software%20PKCS%2311%20Softtoken;manufacturer=Snake%20Oil,%20Inc.;model=1.0;"
                + "object=my-certificate;type=cert;id=%69%95%3E%5C%F4%BD%EC%91;serial=?pin-source=file:/etc/token_pin")
        #expect(uri.token == "The Software PKCS#11 Softtoken")
        #expect(uri.manufacturer == "Snake Oil, Inc.")
        #expect(uri.model == "1.0")
        #expect(uri.object == "my-certificate")
        #expect(uri.type == .cert)
        #expect(uri.id == [0x69, 0x95, 0x3E, 0x5C, 0xF4, 0xBD, 0xEC, 0x91])
        #expect(uri.serial == "")
        #expect(uri.pinSource == "file:/etc/token_pin")
    }

    @Test(arguments: [
        ("pkcs11:", PKCS11URI.ObjectType?.none, String?.none),
        ("pkcs11:object=my-pubkey;type=public", .public, "my-pubkey"),
        ("pkcs11:object=my-key;type=private?pin-source=file:/etc/token", .private, "my-key"),
        ("pkcs11:object=my-sign-key;type=private?module-name=mypkcs11", .private, "my-sign-key"),
        ("pkcs11:object=my-sign-key;type=private?module-path=/mnt/libmypkcs11.so.1", .private, "my-sign-key"),
        (
            "pkcs11:token=A%20name%20with%20a%20substring%20%25%3B;object=my-certificate;type=cert", .cert,
            "my-certificate"
        ),
        (
            "pkcs11:token=Name%20with%20a%20small%20A%20with%20acute:%20%C3%A1;object=my-certificate;type=cert", .cert,
            "my-certificate"
        ),
    ])
    func rfcExamplesParse(text: String, type: PKCS11URI.ObjectType?, object: String?) throws {
        let uri = try PKCS11URI(text)
        #expect(uri.type == type)
        #expect(uri.object == object)
    }

    @Test func rfcExamplesDecodeTextAndBytes() throws {
        #expect(
            try PKCS11URI("pkcs11:token=A%20name%20with%20a%20substring%20%25%3B").token == "A name with a substring %;"
        )
        #expect(
            try PKCS11URI("pkcs11:token=Name%20with%20a%20small%20A%20with%20acute:%20%C3%A1").token
                == "Name with a small A with acute: á")
        let joe = try PKCS11URI(
            "pkcs11:token=My%20token%25%20created%20by%20Joe;library-version=3;id=%01%02%03%Ba%dd%Ca%fe%04%05%06")
        #expect(joe.token == "My token% created by Joe")
        #expect(joe.libraryVersion == "3")
        #expect(joe.id == [0x01, 0x02, 0x03, 0xBA, 0xDD, 0xCA, 0xFE, 0x04, 0x05, 0x06])
        let library = try PKCS11URI(
            "pkcs11:library-manufacturer=Snake%20Oil,%20Inc.;library-description=Soft%20Token%20Library;"
                + "library-version=1.23")
        #expect(library.libraryManufacturer == "Snake Oil, Inc.")
        #expect(library.libraryDescription == "Soft Token Library")
        #expect(library.libraryVersion == "1.23")
        #expect(try PKCS11URI("pkcs11:slot-description=Sun%20Metaslot").slotDescription == "Sun Metaslot")
        #expect(
            try PKCS11URI("pkcs11:object=k?module-path=/mnt/libmypkcs11.so.1").modulePath == "/mnt/libmypkcs11.so.1")
        #expect(try PKCS11URI("pkcs11:object=k?module-name=mypkcs11").moduleName == "mypkcs11")
        #expect(try PKCS11URI("pkcs11:slot-id=17;type=secret-key").slotID == 17)
        #expect(try PKCS11URI("pkcs11:type=secretkey").type == .secretKey)
    }

    /// Each refused URI and the words its error must contain (the attribute at fault).
    @Test(arguments: [
        (
            "pkcs11:token=Software%20PKCS%2311%20softtoken;manufacturer=Snake%20Oil,%20Inc.?pin-value=the-pin",
            "pin-value"
        ),
        ("pkcs11:token=my-token;object=my-certificate;type=cert;vendor-aaa=value-a", "vendor-aaa"),
        ("pkcs11:object=a?pin-source=file:/p&vendor-bbb=value-b", "vendor-bbb"),
        ("pkcs11:objekt=master", "objekt"),
        ("pkcs11:object=a;object=b", "object appears more than once"),
        ("pkcs11:object=%4", "object has a bad percent-encoding"),
        ("pkcs11:id=%zz", "id has a bad percent-encoding"),
        ("pkcs11:type=key", "type=key"),
        ("pkcs11:slot-id=x", "slot-id"),
        ("pkcs11:library-version=1.2.3", "library-version"),
        ("pkcs11:object", "has no \"=\""),
        ("pkcs11:object=%FF", "object is not UTF-8"),
        ("pkcs11:object=a?module-name=m&module-path=/m.so", "module-name and module-path"),
        ("pkcs12:object=a", "starts with \"pkcs11:\""),
    ])
    func refusedWithTheAttributeNamed(text: String, words: String) {
        #expect {
            try PKCS11URI(text)
        } throws: { error in
            guard let error = error as? TokenError else { return false }
            return error.code == .badURI && error.exitStatus == 64 && error.message.contains(words)
                && !error.message.contains("the-pin")
        }
    }

    @Test func moduleComesFromTheURIThenTheEnvironmentWithNoDefault() throws {
        let environment = ["PROVISION_PKCS11_MODULE": "/env/module.so"]
        #expect(
            try PKCS11URI("pkcs11:object=k?module-path=/uri.so").resolvedModulePath(environment: environment)
                == "/uri.so")
        #expect(try PKCS11URI("pkcs11:object=k").resolvedModulePath(environment: environment) == "/env/module.so")
        #expect(throws: TokenError(.moduleUnavailable, "")) {
            try PKCS11URI("pkcs11:object=k").resolvedModulePath(environment: [:])
        }
        #expect(throws: TokenError(.moduleUnavailable, "")) {
            try PKCS11URI("pkcs11:object=k?module-name=softhsm2").resolvedModulePath(environment: environment)
        }
    }
}
