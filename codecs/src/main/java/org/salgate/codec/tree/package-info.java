/** The document layout shared by the Jackson-based codecs. */
package org.salgate.codec.tree;
