# Schemathesis hooks for fuzz-api.sh (SCHEMATHESIS_HOOKS=fuzz_media_types): bodies of the media
# types the fuzzer cannot make by itself. POST /api/loras/import takes a Voice package
# (application/zip): the fuzzer sends an empty archive, archives cut short and bytes that only
# start like one, all of which the import must refuse with a 4xx, never a 5xx.
import schemathesis
from hypothesis import strategies as st

EMPTY_ZIP = b"PK\x05\x06" + b"\x00" * 18
LOCAL_HEADER = b"PK\x03\x04"

schemathesis.openapi.media_type(
    "application/zip",
    st.one_of(
        st.just(EMPTY_ZIP),
        st.binary(max_size=4096).map(lambda rest: LOCAL_HEADER + rest),
        st.binary(max_size=512),
    ),
)
