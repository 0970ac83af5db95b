darwin
