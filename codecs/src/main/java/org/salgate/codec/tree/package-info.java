/** The document layout shared by the Jackson-based and Java codecs, derived from the protobuf schema. */
package org.salgate.codec.tree;
