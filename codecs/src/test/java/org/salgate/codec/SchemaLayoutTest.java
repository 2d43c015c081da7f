package org.salgate.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.salgate.codec.tree.MessageTree;
import org.salgate.wire.CodecException;
import org.salgate.wire.Codecs;
import org.salgate.wire.proto.WireProto;

/**
 * The Jackson codecs carry every field of the schema, with no code for any message type: the frames
 * come from the descriptors, so a new operation is tested here as soon as the schema declares it.
 */
class SchemaLayoutTest {

    @Test
    void theSchemaFramesSetEveryFieldAFrameCanReach() {
        Set<FieldDescriptor> set = new HashSet<>();
        SchemaFrames.everyField().forEach(f -> SchemaFrames.collectSet(f, set));
        assertEquals(SchemaFrames.reachableFields(), set);
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "msgpack", "xml"})
    void everyFieldOfTheSchemaRoundTrips(String name) throws Exception {
        TreeCodec codec = (TreeCodec) Codecs.byName(name);
        for (WireProto.Frame frame : SchemaFrames.everyField()) {
            byte[] bytes = codec.bytesOf(MessageTree.write(frame));
            WireProto.Frame back = MessageTree.read(codec.treeOf(bytes, 0, bytes.length),
                    WireProto.Frame.newBuilder(), "frame").build();
            assertEquals(frame, back, name + " changed " + frame);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "msgpack", "xml"})
    void aFieldTheSchemaDoesNotHaveIsRefused(String name) throws Exception {
        TreeCodec codec = (TreeCodec) Codecs.byName(name);
        ObjectNode tree = MessageTree.write(SchemaFrames.everyField().get(0));
        ((ObjectNode) tree.elements().next()).put("notInTheSchema", 1);
        byte[] bytes = codec.bytesOf(tree);
        CodecException e = assertThrows(CodecException.class, () -> MessageTree.read(codec.treeOf(bytes, 0, bytes.length)));
        assertTrue(e.getMessage().contains("notInTheSchema"), e.getMessage());
    }
}
