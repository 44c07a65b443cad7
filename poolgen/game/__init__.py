"""The game model every part of poolgen reads (`model`), and the two kinds of play with the style
interfaces they delegate to (`play`), and which spots of its style an area has (`spots`). Spec files
become games in poolgen/loader/."""
