package org.salgate.agent.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.salgate.model.Call;

class TokensTest {

    private static final String ADMIN = "a1b2c3d4e5f6a7b8c9d0-admin";
    private static final String READER = "0123456789abcdef-reader";

    @Test
    void eachTokenHasItsRoleAndUnknownTokensHaveNone() {
        Tokens tokens = Tokens.parse(List.of("# operators", "", ADMIN + " admin", "  " + READER + "\tReader  "), "t");
        assertEquals(2, tokens.size());
        assertEquals(Optional.of(Role.ADMIN), tokens.roleOf(ADMIN));
        assertEquals(Optional.of(Role.READER), tokens.roleOf(READER));
        assertEquals(Optional.empty(), tokens.roleOf(""));
        assertEquals(Optional.empty(), tokens.roleOf(null));
        assertEquals(Optional.empty(), tokens.roleOf(ADMIN + "x"));
        assertEquals(Optional.empty(), tokens.roleOf(ADMIN.substring(1)));
    }

    @Test
    void aLineMayGiveTheTokensHashInsteadOfTheToken() {
        String hash = HexFormat.of().formatHex(Tokens.sha256(READER));
        Tokens tokens = Tokens.parse(List.of("sha256:" + hash.toUpperCase() + " reader"), "t");
        assertEquals(Optional.of(Role.READER), tokens.roleOf(READER));
        assertEquals(Optional.empty(), tokens.roleOf("sha256:" + hash));
    }

    @Test
    void badLinesAreErrorsNamingTheFileAndLine() {
        assertError(List.of("# c", ADMIN + " admin", READER), "f line 3: expected a token and its role");
        assertError(List.of(ADMIN + " root"), "f line 1: unknown role 'root'; the roles are reader and admin");
        assertError(List.of("short admin"), "f line 1: the token is 5 characters long; use at least 16");
        assertError(List.of(ADMIN + " admin", ADMIN + " reader"), "f line 2: this token is listed already");
        assertError(List.of("sha256:abc reader"), "f line 1: 'sha256:' must be followed by");
        assertError(List.of("# nothing"), "f lists no token");
    }

    @Test
    void readersMayNotMakeAdminCallsAndAdminsMayMakeAll() {
        List<Call> admin = List.of(new Call.AddProtocol("<x/>"), new Call.RemoveProtocol("p"),
                new Call.AddSensor("<x/>"), new Call.RemoveSensor("s"), new Call.GetPlatformConfig());
        for (Call c : admin) {
            assertTrue(!Role.READER.mayCall(c) && Role.ADMIN.mayCall(c), c.toString());
        }
        List<Call> reader = List.of(new Call.ListSensors(false), new Call.DescribeSensor("s"),
                new Call.ListCommands("s"), new Call.Execute("s", "read", null), new Call.SetupStream("s", "read",
                        null, 0), new Call.StartStream(1), new Call.StopStream(1), new Call.ListProtocols(),
                new Call.SubscribeEvents(), new Call.UnsubscribeEvents());
        for (Call c : reader) {
            assertTrue(Role.READER.mayCall(c), c.toString());
        }
    }

    private static void assertError(List<String> lines, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tokens.parse(lines, "f"));
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }
}
