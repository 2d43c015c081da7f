package org.salgate.transport.rmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.transport.ClientOptions;
import org.salgate.transport.ServerOptions;
import org.salgate.transport.TransportClient;
import org.salgate.transport.TransportServer;
import org.salgate.transport.testing.RecordingClientHandler;
import org.salgate.transport.testing.RecordingServerHandler;
import org.salgate.model.Call;
import org.salgate.wire.Framing;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.ProtobufCodec;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * The process-wide filter the agent and client programs set: RMI still works under it, and what a
 * hostile peer could answer an RMI client with (a gadget-style map, a huge array) is refused.
 */
@Timeout(60)
class ProcessWideFilterTest {

    private static final ObjectInputFilter FILTER = RmiFilters.processWide(Framing.DEFAULT_MAX_FRAME_BYTES);

    @BeforeAll
    static void install() {
        RmiFilters.installProcessWide(Framing.DEFAULT_MAX_FRAME_BYTES);
    }

    private static Object read(byte[] bytes) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            in.setObjectInputFilter(FILTER);
            return in.readObject();
        }
    }

    private static byte[] write(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    @Test
    void anRmiClientAndAgentWorkUnderIt() throws Exception {
        TransportServer server = new RmiTransportProvider().createServer(ServerOptions.builder().port(0).build());
        server.start(new RecordingServerHandler());
        TransportClient client = new RmiTransportProvider().createClient(ClientOptions.builder()
                .port(server.localAddress().getPort()).build());
        try {
            RecordingClientHandler handler = new RecordingClientHandler();
            client.connect(handler);
            client.send(Hello.of(ProtobufCodec.NAME, "filtered"));
            assertInstanceOf(HelloReply.class, handler.received.poll(10, TimeUnit.SECONDS));
            client.send(new Request(1, new Call.Echo(Value.of("under the filter"))));
            assertEquals(new Response(1, new Result.Echoed(Value.of("under the filter"))),
                    handler.received.poll(10, TimeUnit.SECONDS));
        } finally {
            client.close();
            server.close();
        }
    }

    @Test
    void aMapOfUrlsIsRefused() throws Exception {
        Map<URL, String> map = new HashMap<>();
        map.put(new URL("http://example.invalid/"), "x");
        byte[] bytes = write(map);
        assertThrows(InvalidClassException.class, () -> read(bytes));
    }

    @Test
    void aHugeArrayDeclarationIsRefusedBeforeItIsAllocated() throws Exception {
        byte[] bytes = write(new long[1000]);
        for (int i = bytes.length - 8 * 1000 - 4; i >= 0; i--) {
            if (ByteBuffer.wrap(bytes).getInt(i) == 1000) {
                ByteBuffer.wrap(bytes).putInt(i, 300_000_000);
                break;
            }
        }
        InvalidClassException e = assertThrows(InvalidClassException.class, () -> read(bytes));
        assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
    }

    @Test
    void framesAndRemoteExceptionsPass() throws Exception {
        assertEquals(3, ((byte[]) read(write(new byte[3]))).length);
        assertInstanceOf(java.rmi.RemoteException.class, read(write(new java.rmi.RemoteException("no",
                new IOException("cause")))));
    }
}
