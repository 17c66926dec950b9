import Foundation
import Testing

@testable import Ledger

/// What a ledger connection string says about how it travels, and that its secrets never reach an error
/// (issue 43 item 2).
@Suite struct PostgresConnInfoTests {
    private func transport(_ text: String, _ environment: [String: String] = [:]) throws -> PostgresTransport {
        try PostgresConnInfo(text).transport(environment: environment)
    }

    @Test func aUnixSocketIsExemptAndTCPNeedsAVerifiedServer() throws {
        for socket in [
            "host=/tmp/pg dbname=x", "postgresql://%2Ftmp%2Fpg/x", "postgresql:///x", "dbname=x",
            "host=@abstract dbname=x", "postgresql:///x?host=/var/run/postgresql",
        ] {
            #expect(try transport(socket) == .unixSocket, "\(socket)")
        }
        #expect(try transport("postgresql://db.example/x") == .unverifiedTCP(sslmode: "prefer"))
        #expect(try transport("host=/tmp hostaddr=10.0.0.5 dbname=x") == .unverifiedTCP(sslmode: "prefer"))
        #expect(try transport("host=/tmp,db.example dbname=x") == .unverifiedTCP(sslmode: "prefer"))
        #expect(try transport("postgresql://db.example/x?sslmode=require") == .unverifiedTCP(sslmode: "require"))
        #expect(try transport("postgresql://db.example/x?sslmode=disable") == .unverifiedTCP(sslmode: "disable"))
        #expect(try transport("postgresql://db.example/x?sslmode=verify-ca") == .unverifiedTCP(sslmode: "verify-ca"))
        #expect(try transport("postgresql://db.example/x?sslmode=verify-full") == .verifiedTLS)
        #expect(try transport("host=db.example sslmode=verify-ca sslrootcert=/etc/ca.crt") == .verifiedTLS)
        // A service file may name any host: counted as TCP unless the text names a socket.
        #expect(try transport("service=line") == .unverifiedTCP(sslmode: "prefer"))
        #expect(try transport("service=line host=/tmp") == .unixSocket)
    }

    @Test func libpqsEnvironmentFillsWhatTheTextLeavesOutAsLibpqReadsIt() throws {
        #expect(try transport("dbname=x", ["PGHOST": "db.example"]) == .unverifiedTCP(sslmode: "prefer"))
        #expect(try transport("dbname=x", ["PGHOSTADDR": "10.0.0.5"]) == .unverifiedTCP(sslmode: "prefer"))
        #expect(try transport("dbname=x", ["PGHOST": "db.example", "PGSSLMODE": "verify-full"]) == .verifiedTLS)
        #expect(
            try transport("host=db.example sslmode=verify-ca", ["PGSSLROOTCERT": "/etc/ca.crt"]) == .verifiedTLS)
        // The text wins over the environment, as in libpq.
        #expect(
            try transport("host=db.example sslmode=disable", ["PGSSLMODE": "verify-full"])
                == .unverifiedTCP(sslmode: "disable"))
        #expect(try transport("host=/tmp dbname=x", ["PGHOST": "db.example"]) == .unixSocket)
    }

    @Test func anSSLPasswordIsRefusedLikeAPasswordWithoutEchoingIt() throws {
        for text in [
            "postgresql://db.example/x?sslmode=verify-full&sslpassword=hun7er2",
            "host=db.example sslpassword=hun7er2 dbname=x",
        ] {
            let error = try #require(throws: LedgerError.self) { try PostgresConnInfo(text) }
            #expect(error.code == .cannotOpen && error.message.contains("sslpassword"), "\(error.message)")
            #expect(!error.message.contains("hun7er2") && !error.description.contains("hun7er2"))
        }
    }

    @Test func libpqsParseErrorsAreRephrasedWithoutTheValue() throws {
        let cases: [(text: String, secret: String, says: String)] = [
            ("postgresql://ledger:hun%ZZter2@db.example/x", "hun%ZZter2", "the user name or password (before @)"),
            ("postgresql://db.example/x?sslmode=verify-full&sslrootcert=%2", "%2", "the value of sslrootcert"),
            ("postgresql://db.example/d%00b", "d%00b", "the database name"),
            ("postgresql://db.example/x?hunter2", "hunter2", "missing key/value separator \"=\""),
            ("host=db.example hunter2", "hunter2", "missing \"=\" after"),
            ("postgresql://[::1/x?s3cret", "s3cret", "IPv6 host address"),
        ]
        for (text, secret, says) in cases {
            let error = try #require(throws: LedgerError.self) { try PostgresConnInfo(text) }
            #expect(error.code == .cannotOpen, "\(text)")
            #expect(error.message.contains("not a valid libpq connection string or URI"), "\(error.message)")
            #expect(error.message.contains(says), "\(error.message)")
            #expect(!error.message.contains(secret) && !error.description.contains(secret), "\(error.message)")
        }
        // A setting's name is not a secret: a misspelt one is named.
        let misspelt = try #require(throws: LedgerError.self) { try PostgresConnInfo("host=db sslmod=verify-full") }
        #expect(misspelt.message.contains("invalid connection option \"sslmod\""), "\(misspelt.message)")
    }
}
