package org.salgate.codec.java;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import org.salgate.codec.tree.MessageTree;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;

/**
 * Messages as Java serialization streams of {@link SerialNode} trees: the {@link MessageTree} layout,
 * node for node, so this codec too has no code for any message type. Decoding runs under a JEP 290
 * filter that allows exactly the classes of that tree and bounds depth, references and stream
 * size, and array lengths by the stream's own length (every element takes at least a byte), so a
 * stream naming any other class (a gadget chain, a collection) or declaring a huge array is refused
 * before anything is instantiated. The tree read is then expanded within a budget proportional to
 * the stream's length ({@value #EXPANSION_PER_BYTE} per byte), so a stream that refers to the same
 * node again and again (a "DAG bomb") is refused instead of expanding exponentially.
 */
public final class JavaCodec implements Codec {

    public static final String NAME = "java";

    static final int MAX_DEPTH = 64;
    static final long MAX_REFERENCES = 1_000_000;
    static final long MAX_STREAM_BYTES = 256L * 1024 * 1024;
    /**
     * Nodes, characters and bytes the decoded tree may have per byte of the stream: a tree without
     * shared parts has at most one of each per byte; strings shared between messages' fields
     * (a protocol name in every sensor of a list) take a few more.
     */
    static final int EXPANSION_PER_BYTE = 16;
    /** The expansion budget of a small stream. */
    static final long MIN_EXPANSION = 64 * 1024;

    private static final Set<Class<?>> ALLOWED =
            Set.of(SerialNode.class, SerialNode[].class, String.class, String[].class, byte[].class);

    /** The filter for a stream of {@code length} bytes. */
    static ObjectInputFilter filter(int length) {
        return info -> {
            if (info.depth() > MAX_DEPTH || info.arrayLength() > length
                    || info.references() > MAX_REFERENCES || info.streamBytes() > MAX_STREAM_BYTES) {
                return ObjectInputFilter.Status.REJECTED;
            }
            Class<?> c = info.serialClass();
            if (c == null) {
                return ObjectInputFilter.Status.ALLOWED;
            }
            return ALLOWED.contains(c) ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED;
        };
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Message message) {
        return bytesOf(MessageTree.write(message));
    }

    @Override
    public Message decode(byte[] bytes, int offset, int length) throws CodecException {
        return MessageTree.read(treeOf(bytes, offset, length));
    }

    /** The serialization stream of a tree. */
    static byte[] bytesOf(JsonNode tree) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(SerialNode.of(tree));
        } catch (IOException e) {
            throw new UncheckedIOException("the java codec cannot write a message tree", e);
        }
        return bytes.toByteArray();
    }

    /** The tree of a serialization stream, read under the filter and expanded within the budget. */
    static JsonNode treeOf(byte[] bytes, int offset, int length) throws CodecException {
        Object read;
        try {
            ByteArrayInputStream in = new ByteArrayInputStream(bytes, offset, length);
            try (ObjectInputStream objects = new ObjectInputStream(in)) {
                objects.setObjectInputFilter(filter(length));
                read = objects.readObject();
            }
        } catch (InvalidClassException e) {
            throw new CodecException("not a valid java message: refused by the deserialization filter ("
                    + e.getMessage() + ")", e);
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            throw new CodecException("not a valid java message: " + e, e);
        }
        if (!(read instanceof SerialNode node)) {
            throw new CodecException("not a valid java message: the stream holds a "
                    + (read == null ? "null" : read.getClass().getName()) + ", not a message tree");
        }
        try {
            return node.toTree(Math.max(MIN_EXPANSION, (long) EXPANSION_PER_BYTE * length));
        } catch (SerialNode.TooLargeException e) {
            throw new CodecException("not a valid java message: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            // the tree's fields come from the stream: a missing name or child, or arrays of other lengths
            throw new CodecException("not a valid java message: the message tree is malformed (" + e + ")", e);
        }
    }

    @Override
    public String toString() {
        return NAME;
    }
}
