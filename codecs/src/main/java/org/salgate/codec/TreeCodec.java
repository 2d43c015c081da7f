package org.salgate.codec;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.salgate.codec.tree.MessageTree;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;

/**
 * A codec that writes the {@link MessageTree} layout with a Jackson {@link ObjectMapper}, which is
 * thread-safe once configured. It has no code for any message type: the tree follows the schema. Subclasses choose the format and may rewrite the tree before
 * writing it.
 */
public abstract class TreeCodec implements Codec {

    private final String name;
    private final ObjectMapper mapper;

    /**
     * Limits for every Jackson-based codec: text fields up to {@link #MAX_TEXT_CHARS} (a 16 MiB
     * payload is 22 MiB of base64, above Jackson's default of 20 million) and shallow nesting.
     */
    public static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxStringLength(TreeCodec.MAX_TEXT_CHARS).maxNestingDepth(64).build();

    /** The longest text field accepted: base64 of the largest message a gzip frame may inflate to. */
    public static final int MAX_TEXT_CHARS = 96 * 1024 * 1024;

    protected TreeCodec(String name, ObjectMapper mapper) {
        this.name = name;
        this.mapper = mapper;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public byte[] encode(Message message) {
        try {
            return bytesOf(MessageTree.write(message));
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the " + name + " codec cannot encode " + message.getClass().getSimpleName()
                    + ": " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public Message decode(byte[] bytes, int offset, int length) throws CodecException {
        return MessageTree.read(treeOf(bytes, offset, length));
    }

    /** The bytes of a tree in this codec's format. */
    final byte[] bytesOf(JsonNode tree) throws JacksonException {
        return mapper.writeValueAsBytes(beforeWrite(tree));
    }

    /** The tree of {@code length} bytes in this codec's format. */
    final JsonNode treeOf(byte[] bytes, int offset, int length) throws CodecException {
        try {
            // through a stream: some format parsers mishandle an offset into an array
            return mapper.readTree(new ByteArrayInputStream(bytes, offset, length));
        } catch (JacksonException e) {
            throw new CodecException("not a valid " + name + " message: " + e.getOriginalMessage(), e);
        } catch (IOException | RuntimeException e) {
            throw new CodecException("not a valid " + name + " message: " + e.getMessage(), e);
        }
    }

    /** Rewrites the tree before it is written; the default keeps it. */
    protected JsonNode beforeWrite(JsonNode tree) {
        return tree;
    }

    @Override
    public String toString() {
        return name;
    }
}
