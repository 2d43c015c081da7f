package org.salgate.wire;

import org.salgate.model.Call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConnectionCodecTest {

    /** A codec that is deliberately not protobuf, to see which frames use which codec. */
    private static final Codec REVERSED = new Codec() {
        @Override
        public String name() {
            return "reversed";
        }

        @Override
        public byte[] encode(Message message) {
            return reverse(ProtobufCodec.INSTANCE.encode(message));
        }

        @Override
        public Message decode(byte[] bytes, int offset, int length) throws CodecException {
            byte[] copy = new byte[length];
            System.arraycopy(bytes, offset, copy, 0, length);
            return ProtobufCodec.INSTANCE.decode(reverse(copy));
        }
    };

    @Test
    void handshakeUsesProtobufAndLaterFramesTheConnectionCodec() throws CodecException {
        ConnectionCodec sender = new ConnectionCodec(REVERSED);
        ConnectionCodec receiver = new ConnectionCodec(REVERSED);
        Hello hello = Hello.of("reversed", "t");
        byte[] helloBytes = sender.encode(hello);
        assertEquals(hello, ProtobufCodec.INSTANCE.decode(helloBytes), "hello must be readable as protobuf");
        assertEquals(hello, receiver.decode(helloBytes));

        Request request = new Request(1, new Call.ListSensors(false));
        byte[] requestBytes = sender.encode(request);
        assertEquals(request, REVERSED.decode(requestBytes));
        assertEquals(request, receiver.decode(requestBytes));
    }

    @Test
    void aFirstFrameThatIsNotAHandshakeIsRefused() {
        ConnectionCodec receiver = new ConnectionCodec(ProtobufCodec.INSTANCE);
        byte[] request = ProtobufCodec.INSTANCE.encode(new Request(1, new Call.ListProtocols()));
        CodecException e = assertThrows(CodecException.class, () -> receiver.decode(request));
        assertTrue(e.getMessage().contains("must be a hello"), e.getMessage());
    }

    private static byte[] reverse(byte[] b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            r[i] = b[b.length - 1 - i];
        }
        return r;
    }
}
