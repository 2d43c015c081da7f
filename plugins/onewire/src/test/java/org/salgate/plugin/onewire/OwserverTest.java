package org.salgate.plugin.onewire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwserverTest {

    private static final long LATER = System.nanoTime() + 60_000_000_000L;

    private static byte[] reply(int length, int ret, int flags, int size, byte[] payload) {
        return ByteBuffer.allocate(24 + payload.length).putInt(0).putInt(length).putInt(ret).putInt(flags)
                .putInt(size).putInt(0).put(payload).array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuffer b = ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    @Test
    void aRequestIsTheSixBigEndianHeaderWordsThenThePathEndingInNul() {
        byte[] r = Owserver.request(Owserver.READ, "/28.000028D70000/temperature", 8192, 0x104);
        ByteBuffer b = ByteBuffer.wrap(r);
        assertEquals(0, b.getInt());
        assertEquals(29, b.getInt());
        assertEquals(Owserver.READ, b.getInt());
        assertEquals(0x104, b.getInt());
        assertEquals(8192, b.getInt());
        assertEquals(0, b.getInt());
        assertEquals("/28.000028D70000/temperature\0", new String(r, 24, 29, StandardCharsets.UTF_8));
    }

    @Test
    void aReadReplyGivesItsDataAndSkipsTheStillWorkingPingsBeforeIt() throws Exception {
        byte[] data = "     21.5".getBytes(StandardCharsets.UTF_8);
        byte[] stream = concat(reply(-1, 0, 0, 0, new byte[0]), reply(-1, 0, 0, 0, new byte[0]),
                reply(data.length, data.length, 4, data.length, data));
        Owserver.Reply r = Owserver.readReply(new ByteArrayInputStream(stream), 100, LATER);
        assertEquals(data.length, r.ret());
        assertEquals(4, r.flags());
        assertArrayEquals(data, r.data());
    }

    @Test
    void aPayloadLargerThanTheBoundIsRefusedBeforeAnythingIsAllocated() {
        // announces 2 GB and sends nothing more: refused at the header
        byte[] header = reply(Integer.MAX_VALUE, 0, 0, 0, new byte[0]);
        IOException e = assertThrows(Owserver.ProtocolException.class,
                () -> Owserver.readReply(new ByteArrayInputStream(header), Owserver.MAX_PAYLOAD, LATER));
        assertTrue(e.getMessage().contains("2147483647"), e.getMessage());
        assertThrows(Owserver.ProtocolException.class, () -> Owserver.readReply(
                new ByteArrayInputStream(reply(-7, 0, 0, 0, new byte[0])), Owserver.MAX_PAYLOAD, LATER));
    }

    @Test
    void aSizeBeyondThePayloadIsRefused() throws Exception {
        Owserver.Reply r = Owserver.readReply(new ByteArrayInputStream(reply(2, 2, 0, 3000, new byte[] {'4', '2'})),
                100, LATER);
        assertThrows(Owserver.ProtocolException.class, r::data);
        Owserver.Reply negative = Owserver.readReply(new ByteArrayInputStream(reply(2, 2, 0, -1, new byte[2])),
                100, LATER);
        assertThrows(Owserver.ProtocolException.class, negative::data);
    }

    @Test
    void aTruncatedReplyIsAProtocolErrorAndAClosedConnectionBeforeItIsAnEndOfStream() {
        byte[] whole = reply(9, 9, 0, 9, "     21.5".getBytes(StandardCharsets.UTF_8));
        for (int cut : new int[] {5, 23, 24, 30}) {
            InputStream in = new ByteArrayInputStream(java.util.Arrays.copyOf(whole, cut));
            assertThrows(Owserver.ProtocolException.class, () -> Owserver.readReply(in, 100, LATER), "cut at " + cut);
        }
        assertThrows(EOFException.class, () -> Owserver.readReply(new ByteArrayInputStream(new byte[0]), 100, LATER));
    }

    @Test
    void pingsPastTheDeadlineEndTheExchange() {
        byte[] pings = concat(reply(-1, 0, 0, 0, new byte[0]), reply(-1, 0, 0, 0, new byte[0]));
        assertThrows(SocketTimeoutException.class,
                () -> Owserver.readReply(new ByteArrayInputStream(pings), 100, System.nanoTime() - 1));
    }

    @Test
    void aDirectoryIsItsCommaSeparatedPathsWithoutTheNul() {
        byte[] payload = "/10.67C6697351FF,/28.4AEC29CDBAAB,/bus.0\0".getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of("/10.67C6697351FF", "/28.4AEC29CDBAAB", "/bus.0"), Owserver.list(payload));
        assertEquals(List.of(), Owserver.list(new byte[] {0}));
    }

    @Test
    void aClientReadsListsAndChecksPresenceAgainstAnOwserverAndNamesItsErrors() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(OnewirePluginConformanceTest.BUS);
             Owserver client = new Owserver("127.0.0.1", fake.port(), 2000, true)) {
            assertEquals("     21.5", new String(client.read("/28.000028D70000/temperature"), StandardCharsets.UTF_8));
            assertTrue(client.dirall("/").contains("/26.F2FBE3467CC2"));
            assertTrue(client.present("/1D.54F81BE8E78D"));
            Owserver.ErrorReply e = assertThrows(Owserver.ErrorReply.class,
                    () -> client.read("/28.000000000000/temperature"));
            assertTrue(e.noSuchPath());
            assertTrue(e.getMessage().contains("ENOENT") && e.getMessage().contains("/28.000000000000/temperature"),
                    e.getMessage());
        }
    }

    @Test
    void aKeptConnectionThatOwserverDroppedIsOpenedAgainForTheNextRequest() throws Exception {
        try (FakeOwserver fake = new FakeOwserver(Map.of("/28.000028D70000/temperature", "1"));
             Owserver client = new Owserver("127.0.0.1", fake.port(), 2000, true)) {
            assertEquals("1", new String(client.read("/28.000028D70000/temperature"), StandardCharsets.UTF_8));
            fake.dropConnections();
            assertEquals("1", new String(client.read("/28.000028D70000/temperature"), StandardCharsets.UTF_8));
        }
    }
}
