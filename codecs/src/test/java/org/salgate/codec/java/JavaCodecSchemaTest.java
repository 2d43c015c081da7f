package org.salgate.codec.java;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.salgate.codec.SchemaFrames;
import org.salgate.codec.tree.MessageTree;
import org.salgate.wire.CodecException;
import org.salgate.wire.proto.WireProto;

class JavaCodecSchemaTest {

    @Test
    void everyFieldOfTheSchemaRoundTripsAsSerialNodes() throws CodecException {
        for (WireProto.Frame frame : SchemaFrames.everyField()) {
            byte[] bytes = JavaCodec.bytesOf(MessageTree.write(frame));
            WireProto.Frame back = MessageTree.read(JavaCodec.treeOf(bytes, 0, bytes.length),
                    WireProto.Frame.newBuilder(), "frame").build();
            assertEquals(frame, back, "java changed " + frame);
        }
    }
}
